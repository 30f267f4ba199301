import Auth0Web
import MetadataDemoApp
import TestSupport
import Testing
import Web

/// `POST /backchannel-logout`: logout tokens that end sessions, and every kind that is refused.
@Suite struct BackchannelLogoutRouteTests {
    let services: AppServices
    let app: MetadataDemo
    let keys = TestKeys.shared
    let now: Double = Clock.system.now().rounded(.down)

    init() throws {
        services = try TestServices.make(http: TestKeys.shared)
        let pages = try LocalizedPages(directory: MetadataDemoTests.templatesDirectory)
        app = MetadataDemo(pages: pages, services: services, log: Log(minimum: .error))
    }

    private func claims(_ changes: [String: JSONValue?] = [:]) -> [String: JSONValue] {
        var claims: [String: JSONValue] = [
            "iss": .string(TestSettings.auth0.issuer), "aud": .string(TestSettings.auth0.client.id),
            "iat": .number(now), "exp": .number(now + 120), "jti": .string("jti-\(UInt64.random(in: 0...UInt64.max))"),
            "sid": "sid-laptop", "sub": "auth0|1",
            "events": .object([LogoutTokenVerifier.event: .object([:])]),
        ]
        for (name, value) in changes { claims[name] = value }
        return claims
    }

    private func post(_ token: String?) -> Response {
        let body = token.map { "logout_token=" + PercentEncoding.encode($0) } ?? "other=1"
        return app.respond(
            to: Request(
                method: "POST", path: "/backchannel-logout",
                headers: ["content-type": "application/x-www-form-urlencoded"], body: Array(body.utf8)))
    }

    private func session(sid: String?, createdAt: Double) -> Session {
        Session(
            profile: .init(
                sub: "auth0|1", name: "N", email: "n@example.com", emailVerified: true, picture: "", updatedAt: ""),
            accessToken: nil, refreshToken: nil, tenantSessionID: sid, csrfToken: "csrf-\(sid ?? "none")",
            createdAt: Int64(createdAt))
    }

    private func isLoggedIn(_ session: Session) throws -> Bool {
        let cookie = try services.auth0.sessions.store(session)[0]
        let answer = app.respond(
            to: Request(method: "GET", path: "/me", headers: ["cookie": "\(cookie.name)=\(cookie.value)"]))
        return answer.status == 200
    }

    @Test func aSidEndsThatTenantSessionOnlyAndTheTokenWorksOnce() throws {
        let laptop = session(sid: "sid-laptop", createdAt: now - 100)
        let phone = session(sid: "sid-phone", createdAt: now - 100)
        let token = try keys.token(claims: claims())
        let answer = post(token)
        #expect(answer.status == 200)
        #expect(answer.header("Cache-Control") == "no-store")
        #expect(try !isLoggedIn(laptop))
        #expect(try isLoggedIn(phone))
        let replay = post(token)
        #expect(replay.status == 400)
        #expect(String(decoding: replay.body, as: UTF8.self).contains(#""error":"invalid_request""#))
    }

    /// Back-Channel Logout's drafts had no `exp`, and Glewlwyd 2.7 sends none: such a token stands
    /// for `LogoutTokenVerifier.lifetimeWithoutExpiry` after its `iat`, and only once.
    @Test func aTokenWithoutExpFromAnEarlierDraftStandsShortlyAfterItsIat() throws {
        let laptop = session(sid: "sid-laptop", createdAt: now - 100)
        let token = try keys.token(claims: claims(["exp": nil, "iat": .number(now - 60)]))
        #expect(post(token).status == 200)
        #expect(try !isLoggedIn(laptop))
        #expect(post(token).status == 400, "a replay")
    }

    /// Issue 49, I2: such a token stands 120 s after its `iat`, the leeway included (it stood
    /// 180 s: the leeway for clocks that differ on `exp` was added to a life counted from `iat`).
    @Test func aTokenWithoutExpStandsNoLongerThanItsLifeAfterItsIat() throws {
        let laptop = session(sid: "sid-laptop", createdAt: now - 300)
        let life = Double(LogoutTokenVerifier.lifetimeWithoutExpiry)
        #expect(life == 120)
        let late = try keys.token(claims: claims(["exp": nil, "iat": .number(now - life - 30), "jti": "late"]))
        #expect(post(late).status == 400)
        #expect(try isLoggedIn(laptop))
        let inTime = try keys.token(claims: claims(["exp": nil, "iat": .number(now - life + 5), "jti": "in-time"]))
        #expect(post(inTime).status == 200)
        #expect(try !isLoggedIn(laptop))
    }

    @Test func aSubAloneEndsEverySessionOfThePersonBegunBeforeIt() throws {
        let older = session(sid: "a", createdAt: now - 100)
        let later = session(sid: "b", createdAt: now + 5)
        #expect(post(try keys.token(claims: claims(["sid": nil]))).status == 200)
        #expect(try !isLoggedIn(older))
        #expect(try isLoggedIn(later))
    }

    @Test(
        arguments: [
            ("expired", ["exp": .number(0), "iat": .number(0)]),
            ("no exp, and issued longer ago than such a token lives", ["exp": nil, "iat": .number(0)]),
            ("nonce", ["nonce": "n"]),
            ("no event", ["events": .object([:])]),
            ("another event", ["events": .object(["http://example.com/other": .object([:])])]),
            ("neither sid nor sub", ["sid": nil, "sub": nil]),
            ("no jti", ["jti": nil]),
            ("another audience", ["aud": "someone-else"]),
            ("another issuer", ["iss": "https://evil.example.com/"]),
        ] as [(String, [String: JSONValue?])])
    func aTokenThatIsNotAValidLogoutTokenIsRefused(_ name: String, _ changes: [String: JSONValue?]) throws {
        let standing = session(sid: "sid-laptop", createdAt: now - 100)
        let answer = post(try keys.token(claims: claims(changes)))
        #expect(answer.status == 400, "\(name)")
        #expect(try isLoggedIn(standing), "\(name)")
    }

    /// Review 2, item 4: `exp` 1e300 trapped converting to an integer (SIGILL) in the ledger, and
    /// `iat` -1e300 in the verifier. Signed by the tenant's key, each is a 400, never a crash.
    @Test(
        arguments: [
            ["exp": .number(1e300)], ["exp": .number(.infinity)], ["iat": .number(-1e300)],
            ["iat": .number(-1)], ["exp": .number(9.3e18)], ["iat": .number(-9.3e18), "sid": nil],
            ["exp": .string("soon")],
        ] as [[String: JSONValue?]])
    func aTokenWithAnAbsurdTimeIsRefusedNotACrash(_ changes: [String: JSONValue?]) throws {
        let standing = session(sid: "sid-laptop", createdAt: now - 100)
        let answer = post(try keys.token(claims: claims(changes)))
        #expect(answer.status == 400, "\(changes)")
        #expect(try isLoggedIn(standing))
    }

    @Test func unsignedAndMissingTokensAreRefused() throws {
        let unsigned = try keys.token(header: ["alg": "none", "typ": "JWT"], claims: claims(), signature: [])
        #expect(post(unsigned).status == 400)
        let forged = try keys.token(claims: claims(), signature: Array(repeating: 7, count: 256))
        #expect(post(forged).status == 400)
        #expect(post(nil).status == 400)
        let get = app.respond(to: Request(method: "GET", path: "/backchannel-logout", headers: [:]))
        #expect(get.status == 405)
    }

    /// The fifth review's finding 2: every claim of any posted token under 64 KB was parsed before
    /// its signature was looked at (a 60 KB token of small objects cost ~35 ms of CPU). Now the
    /// signature is judged first (a forged token's claims, however made, are never read: one
    /// that is not even JSON is refused for its signature), and a logout token has a limit near
    /// its real size.
    @Test func aForgedTokenIsRefusedByItsSignatureBeforeItsClaimsAreRead() throws {
        let header = Base64URL.encode(JSONValue.object(["alg": "RS256", "kid": .string(keys.kid)]).serialized())
        let junkClaims = Base64URL.encode(Array("not JSON at all".utf8))
        let forged = header + "." + junkClaims + "." + Base64URL.encode(Array(repeating: 7, count: 256))
        let answer = post(forged)
        #expect(answer.status == 400)
        #expect(String(decoding: answer.body, as: UTF8.self).contains("signature"), "\(answer.body)")
        // Object-heavy claims past the logout token's limit: refused unread, as malformed.
        let heavy = try keys.token(
            claims: claims(["x": .array(Array(repeating: .object([:]), count: 4000))]),
            signature: Array(repeating: 7, count: 256))
        #expect(heavy.utf8.count > LogoutTokenVerifier.longest)
        let refused = post(heavy)
        #expect(refused.status == 400)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("malformed"), "\(refused.body)")
        // A real one stays well inside it.
        #expect(try keys.token(claims: claims()).utf8.count < LogoutTokenVerifier.longest / 4)
    }
}
