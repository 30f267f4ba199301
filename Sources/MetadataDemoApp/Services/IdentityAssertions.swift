import Auth0Web
import OpenSSLCrypto
import Web

/// Who is logged in, said in a form a sibling app on another host can check on its own: a JWT
/// (ES256) signed with the product's key, `iss` the site, `aud` the sibling, a minute's life,
/// `jti` its own random id and `sid` the login it speaks for (`Session.publicID`). `/auth/check`
/// signs one for each sibling request and hands it to nginx, which passes it on as
/// `X-Auth-Assertion`; the public keys are at `/.well-known/jwks.json`. A sibling that verifies
/// it trusts neither the network between them nor the `X-Auth-*` headers beside it, and one that
/// refuses a `jti` it has seen cannot be handed an assertion taken from an earlier request (one
/// was reused for half a minute: a copy stayed good after its login ended).
public final class IdentityAssertions: Sendable {
    /// How long an assertion is valid (`exp` − `iat`): the clocks of two hosts may differ.
    static let lifetimeSeconds: Int64 = 60

    private let signer: ECPrivateKey
    private let signerID: String
    private let issuer: String
    private let audience: String
    private let clock: Clock
    /// The key set, as `/.well-known/jwks.json` serves it.
    public let keySet: [UInt8]

    /// Assertions signed by the first of `keys` (all of them published), for `audience`, issued
    /// by the site at `baseURL`; nil when there are no keys (the feature is off).
    public init?(keys: [ECPrivateKey], baseURL: String, audience: String, clock: Clock) throws {
        guard let first = keys.first else { return nil }
        var published: [JSONValue] = []
        var ids: [String] = []
        for key in keys {
            let (x, y) = try key.publicCoordinates()
            ids.append(Self.thumbprint(x: x, y: y))
            published.append(
                .object([
                    "kty": "EC", "crv": "P-256", "x": .string(Base64URL.encode(x)), "y": .string(Base64URL.encode(y)),
                    "kid": .string(ids.last!), "use": "sig", "alg": "ES256",
                ]))
        }
        signer = first
        signerID = ids[0]
        issuer = baseURL + "/"
        self.audience = audience
        self.clock = clock
        keySet = JSONValue.object(["keys": .array(published)]).serialized()
    }

    /// The RFC 7638 thumbprint of a P-256 public key: the key's id, the same for everyone who
    /// computes it.
    static func thumbprint(x: [UInt8], y: [UInt8]) -> String {
        let canonical =
            #"{"crv":"P-256","kty":"EC","x":""# + Base64URL.encode(x) + #"","y":""# + Base64URL.encode(y)
            + #""}"#
        return Base64URL.encode(SHA256.hash(Array(canonical.utf8)))
    }

    /// An assertion of `session`'s person, for one request to the sibling of `audience` (by
    /// default `ASSERTION_AUDIENCE`'s), valid for a minute.
    public func assertion(for session: Session, audience: String? = nil) throws -> String {
        let audience = audience ?? self.audience
        let now = Int64(clock.now())
        let profile = session.profile
        let header: JSONValue = .object(["alg": "ES256", "typ": "JWT", "kid": .string(signerID)])
        let claims: JSONValue = .object([
            "iss": .string(issuer), "aud": .string(audience), "sub": .string(profile.sub),
            "email": .string(profile.email), "name": .string(profile.name),
            "sid": .string(session.publicID), "jti": .string(Base64URL.encode(SecureRandom.bytes(16))),
            "iat": .number(Double(now)), "exp": .number(Double(now + Self.lifetimeSeconds)),
        ])
        return try JWT.signed(header: header, claims: claims, by: signer.signES256)
    }
}
