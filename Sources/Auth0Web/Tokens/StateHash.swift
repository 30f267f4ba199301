import OpenSSLCrypto
import Web

/// `s_hash`: the ID token as a detached signature of the response's `state` (FAPI 1.0 Advanced
/// §5.2.2.1; Auth0 adds it at its FAPI compliance levels). Computed as OpenID Connect computes
/// `at_hash`: the left half of the hash of `state`'s ASCII bytes, by the digest of the ID token's
/// algorithm, base64url-encoded.
public enum StateHash {
    /// `s_hash` of `state` for ID tokens signed with `algorithm`.
    public static func of(_ state: String, algorithm: SigningAlgorithm) -> String {
        let digest = algorithm.digest.hash(Array(state.utf8))
        return Base64URL.encode(digest.prefix(digest.count / 2))
    }

    /// Checks the ID token's `claim` against `state`: a claim that differs fails; a missing one
    /// fails only when it is `required`.
    public static func check(_ claim: String?, state: String, algorithm: SigningAlgorithm, required: Bool)
        throws(AuthError)
    {
        guard let claim else {
            if required { throw AuthError(.stateHashMismatch, "no s_hash") }
            return
        }
        guard ConstantTime.equal(Array(claim.utf8), Array(of(state, algorithm: algorithm).utf8)) else {
            throw AuthError(.stateHashMismatch, "s_hash is not the state's")
        }
    }
}
