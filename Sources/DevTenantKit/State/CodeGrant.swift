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
    /// When the person last gave their password in the tenant session (`auth_time`).
    var authTime: Double? = nil
    /// The session passed the multi-factor step (`amr: ["mfa"]`, and the policy as `acr`).
    var multiFactor: Bool = false
    /// The DPoP key the code is bound to (`dpop_jkt`, RFC 9449 §10): only a proof by it redeems it.
    var dpopJKT: String? = nil
    /// The request's `state`, for the ID token's `s_hash` (an application under a FAPI compliance level).
    var stateToHash: String? = nil
}
