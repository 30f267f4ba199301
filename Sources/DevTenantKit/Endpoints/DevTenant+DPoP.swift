import OpenSSLCrypto
import Web

/// DPoP (RFC 9449) as the tenant checks it: a proof is a JWT of type `dpop+jwt`, signed ES256
/// by the public key in its own header, naming the request's method (`htm`) and address without
/// query (`htu`), made within a minute (`iat`), never seen before (`jti`), with the tenant's
/// nonce when it asks for one, and, beside an access token, that token's hash (`ath`). The key's
/// thumbprint (RFC 7638) is what tokens are bound to (`cnf.jkt`).
extension DevTenant {
    /// What a request's proof came to.
    enum ProofCheck: Equatable {
        /// No `DPoP` header.
        case absent
        /// A good proof, by the key of this thumbprint.
        case valid(jkt: String)
        /// A proof without the tenant's current nonce.
        case needsNonce
        /// A bad proof, for this reason.
        case invalid(String)
    }

    /// The proof of `request` for the address `htu`, beside `accessToken` when one is presented.
    func checkProof(_ request: Request, htu: String, accessToken: String?) -> ProofCheck {
        guard let proof = request.header("dpop") else { return .absent }
        guard let jws = CompactJWS(proof) else { return .invalid("malformed") }
        let (header, claims) = (jws.header, jws.claims)
        let jwk = header["jwk"]
        guard header["typ"] == "dpop+jwt", header["alg"] == "ES256", jwk?["kty"] == "EC", jwk?["crv"] == "P-256",
            jwk?["d"] == nil, let xText = jwk?["x"]?.string, let yText = jwk?["y"]?.string,
            let x = Base64URL.decode(xText), let y = Base64URL.decode(yText),
            let key = try? SignaturePublicKey(curve: .p256, x: x, y: y),
            key.verify(signature: jws.signature, message: jws.signedPart, digest: .sha256)
        else { return .invalid("signature or key") }
        guard claims["htm"]?.string == request.method, claims["htu"]?.string == htu else {
            return .invalid("htm or htu")
        }
        let now = now()
        guard let iat = claims["iat"]?.number, abs(iat - now) <= 60 else { return .invalid("iat") }
        if let accessToken {
            guard claims["ath"]?.string == Base64URL.encode(SHA256.hash(Array(accessToken.utf8))) else {
                return .invalid("ath")
            }
        }
        if config.dpopRequiresNonce, claims["nonce"]?.string != store.dpopNonce { return .needsNonce }
        guard let jti = claims["jti"]?.string, !jti.isEmpty,
            store.firstUse(ofJTI: jti, from: "dpop-proof", until: iat + 120)
        else { return .invalid("jti used before") }
        let canonical = #"{"crv":"P-256","kty":"EC","x":""# + xText + #"","y":""# + yText + #""}"#
        return .valid(jkt: Base64URL.encode(SHA256.hash(Array(canonical.utf8))))
    }

    /// The address a proof names for a request to `request.path` of this tenant.
    func proofTarget(_ request: Request) -> String { String(config.issuer.dropLast()) + request.path }

    /// The token endpoint's refusal of a proof, when it is one (RFC 9449 §5, §8).
    func tokenProofRefusal(_ check: ProofCheck) -> Response? {
        switch check {
        case .absent, .valid: return nil
        case .needsNonce:
            var response = oauthError(400, "use_dpop_nonce", "Authorization server requires nonce in DPoP proof")
            response.add("DPoP-Nonce", store.dpopNonce)
            return response
        case .invalid(let reason):
            log(.info, "dpop proof refused", ["reason": reason])
            return oauthError(400, "invalid_dpop_proof", "Invalid DPoP proof")
        }
    }

    /// Whether a presented access token with `claims` may be used: a bound one (`cnf.jkt`) only
    /// as `DPoP` with a proof by its key, an unbound one only as `Bearer`; nil when so, else the
    /// 401 to answer (a nonce asked for in the challenge when that is all that is missing).
    func boundTokenRefusal(_ request: Request, token: String, dpopScheme: Bool, claims: JSONValue) -> Response? {
        let bound = claims["cnf"]?["jkt"]?.string
        guard bound != nil || dpopScheme else { return nil }
        let check = dpopScheme ? checkProof(request, htu: proofTarget(request), accessToken: token) : .absent
        if let bound, check == .valid(jkt: bound) { return nil }
        var response = Response.text("Unauthorized", status: 401)
        if check == .needsNonce {
            response.add("WWW-Authenticate", #"DPoP error="use_dpop_nonce", algs="ES256""#)
            response.add("DPoP-Nonce", store.dpopNonce)
        } else {
            log(.info, "dpop-bound token refused", ["check": "\(check)"])
            response.add("WWW-Authenticate", #"DPoP error="invalid_token", algs="ES256""#)
        }
        return response
    }
}
