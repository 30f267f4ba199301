import Foundation
import OpenSSLCrypto
import Synchronization
import Web

/// An authorization code waiting to be exchanged (kept in memory: codes live a minute).
struct CodeGrant: ExpiringGrant {
    let clientID: String
    let redirectURI: String
    let userID: String
    let nonce: String?
    let scope: String
    let audience: String?
    let codeChallenge: String?
    let challengeMethod: String
    let sessionID: String
    let expiresAt: Double
}
