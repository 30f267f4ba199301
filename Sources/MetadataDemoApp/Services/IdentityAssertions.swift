import Auth0Web
import Locking
import OpenSSLCrypto
import Web

/// Who is logged in, said in a form a sibling app on another host can check on its own: a JWT
/// (ES256) signed with the product's key, `iss` the site, `aud` the sibling, a minute's life,
/// `jti` its own random id and `sid` the login it speaks for (`Session.publicID`). `/auth/check`
/// hands one to nginx for each sibling request, which passes it on as `X-Auth-Assertion`; the
/// public keys are at `/.well-known/jwks.json`. A sibling that verifies it trusts neither the
/// network between them nor the `X-Auth-*` headers beside it.
///
/// One signature costs three logged-in pages of CPU, and a mini app's page brings its assets and
/// calls with it, each passing its check: so one assertion is handed on for the same login,
/// person and audience for at most `reuseSeconds` after it was signed, and a sibling accepts a
/// `jti` for `acceptSeconds` after it first saw it, then refuses it. A copy taken from a request
/// (a log, a proxy) opens nothing a second later, and an ended login gets no new assertion, so an
/// ending reaches every sibling within a second (one was reused for half a minute once: a copy
/// stayed good after its login ended).
public final class IdentityAssertions: Sendable {
    /// How long an assertion is valid (`exp` − `iat`): the clocks of two hosts may differ.
    static let lifetimeSeconds: Int64 = 60
    /// How long one signed assertion is handed on again for the same login, person and audience.
    public static let reuseSeconds: Double = 0.5
    /// How long after its first sight a sibling accepts a `jti` (the example app's rule).
    public static let acceptSeconds: Double = 1
    /// The assertions signed in the last `reuseSeconds`, by what they say; forgotten whole past
    /// `recentLimit` (at most one per login and app a moment).
    private let recent = Lock<[Said: (assertion: String, signedAt: Double)]>([:])
    static let recentLimit = 10_000

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
            ids.append(JWKThumbprint.p256(x: x, y: y))
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

    /// An assertion of `session`'s person, for a request to the sibling of `audience` (by
    /// default `ASSERTION_AUDIENCE`'s), valid for a minute: the one signed for the same login,
    /// person and audience in the last `reuseSeconds`, else a new one.
    public func assertion(for session: Session, audience: String? = nil) throws -> String {
        let audience = audience ?? self.audience
        let profile = session.profile
        // Looked up by the login's own token, not its public id: that id is a hash to make,
        // which cost the check more than the rest of the look-up (nearly every check reuses one).
        let said = Said(
            audience: audience, login: session.csrfToken, sub: profile.sub, email: profile.email, name: profile.name)
        let now = clock.now()
        if let kept = recent.withLock({ $0[said] }), now - kept.signedAt < Self.reuseSeconds, now >= kept.signedAt {
            return kept.assertion
        }
        let sid = session.publicID
        let issuedAt = Int64(now)
        let header: JSONValue = .object(["alg": "ES256", "typ": "JWT", "kid": .string(signerID)])
        let claims: JSONValue = .object([
            "iss": .string(issuer), "aud": .string(audience), "sub": .string(profile.sub),
            "email": .string(profile.email), "name": .string(profile.name),
            "sid": .string(sid), "jti": .string(Base64URL.encode(SecureRandom.bytes(16))),
            "iat": .number(Double(issuedAt)), "exp": .number(Double(issuedAt + Self.lifetimeSeconds)),
        ])
        let assertion = try JWT.signed(header: header, claims: claims, by: signer.signES256)
        recent.withLock { recent in
            if recent.count >= Self.recentLimit {
                recent = recent.filter { now - $0.value.signedAt < Self.reuseSeconds }
            }
            recent[said] = (assertion, now)
        }
        return assertion
    }

    /// What an assertion says of whom, for whom: one is handed on again only where all of it is
    /// the same (the login by its CSRF token, which its `sid` is derived from).
    private struct Said: Hashable {
        let audience: String
        let login: String
        let sub: String
        let email: String
        let name: String
    }
}
