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
    /// When the login that began the family gave its password, and whether it passed the second
    /// factor: what the access tokens of the family say of it (`actions.access_token_claims`).
    var authTime: Double? = nil
    var multiFactor: Bool = false
}
