import Foundation
import OpenSSLCrypto
import Synchronization
import Web

/// A refresh token and its family (all tokens rotated from one login).
struct RefreshGrant: Sendable {
    let family: String
    let clientID: String
    let userID: String
    let scope: String
    let audience: String?
    let sessionID: String
    /// The family's absolute expiry: rotation does not extend it.
    let expiresAt: Double
    var used: Bool
}
