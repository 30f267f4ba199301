import OpenSSLCrypto
import Web

/// One of an application's Private Key JWT credentials, as Auth0's Management API keeps them
/// (`client_authentication_methods.private_key_jwt.credentials[]`): a public key (`pem`) and the
/// algorithm its assertions are signed with (`alg`: RS256, RS384 or PS256), with the `kid` Auth0
/// made for it. An application has at most two, so a new key can be added before the old goes.
public struct ClientCredential: Sendable {
    /// The algorithms a credential may name, as Auth0 takes them.
    static let algorithms = ["RS256", "RS384", "PS256"]

    let publicKey: RSAPublicKey
    let algorithm: String
    let kid: String?

    /// True when one of `credentials` signed `jws`: its `alg` the credential's, its `kid` (when
    /// sent) the credential's, the signature good (RS256, RS384 or PS256, as Auth0 takes them).
    static func signed(_ jws: CompactJWS, byOneOf credentials: [ClientCredential]) -> Bool {
        let algorithm = jws.header["alg"]?.string ?? ""
        let kid = jws.header["kid"]?.string
        return credentials.contains { credential in
            guard credential.algorithm == algorithm, kid == nil || kid == credential.kid else { return false }
            return credential.publicKey.verify(
                signature: jws.signature, message: jws.signedPart, digest: algorithm == "RS384" ? .sha384 : .sha256,
                pss: algorithm == "PS256")
        }
    }

    /// The Private Key JWT credentials of an application's entry; each problem one line naming the application.
    static func all(in client: JSONValue, id: String, problems: inout [String]) -> [ClientCredential] {
        all(
            client["client_authentication_methods"]?["private_key_jwt"]?["credentials"]?.array ?? [], id: id,
            kind: "private_key_jwt", problems: &problems)
    }

    /// The credentials JAR's request objects are checked with (`signed_request_object.credentials`,
    /// Auth0's "Configure JWT-Secured Authorization Requests"): the same shape, at most two.
    static func requestObjectKeys(in client: JSONValue, id: String, problems: inout [String]) -> [ClientCredential] {
        all(
            client["signed_request_object"]?["credentials"]?.array ?? [], id: id, kind: "signed_request_object",
            problems: &problems)
    }

    private static func all(_ entries: [JSONValue], id: String, kind: String, problems: inout [String])
        -> [ClientCredential]
    {
        if entries.count > 2 {
            problems.append("\(id): at most two \(kind) credentials, as at Auth0")
        }
        return entries.enumerated().compactMap { index, entry in
            let algorithm = entry["alg"]?.string ?? "RS256"
            guard algorithms.contains(algorithm), let pem = entry["pem"]?.string,
                let key = try? RSAPublicKey(pem: pem)
            else {
                problems.append(
                    "\(id): \(kind) credential \(index + 1) needs a pem (an RSA public key "
                        + "of 2048 bits or more) and an alg of \(algorithms.joined(separator: ", "))")
                return nil
            }
            return ClientCredential(publicKey: key, algorithm: algorithm, kid: entry["kid"]?.string)
        }
    }
}
