import Auth0Web
import MetadataDemoApp
import TestSupport
import Testing
import Web

/// `GET /me`: the profile as the provider said it, for sibling pages' scripts (issue 41: a
/// provider that sent neither `email_verified` nor keeps metadata got `"email_verified": false`
/// and an empty `user_metadata` said for it).
@Suite struct MeRouteTests {
    private func me(_ session: Session, environment: [String: String?]) throws -> JSONValue {
        let services = try TestServices.make(extra: environment)
        let pages = try LocalizedPages(directory: MetadataDemoTests.templatesDirectory)
        let app = MetadataDemo(pages: pages, services: services, log: Log(minimum: .error))
        let cookie = try services.auth0.sessions.store(session)[0]
        let answer = app.respond(
            to: Request(method: "GET", path: "/me", headers: ["cookie": "\(cookie.name)=\(cookie.value)"]))
        try #require(answer.status == 200)
        return try #require(JSONValue.parse(answer.body))
    }

    private func session(emailVerified: Bool?) -> Session {
        Session(
            profile: .init(
                sub: "user-7", name: "Ada", email: "ada@example.org", emailVerified: emailVerified, picture: "",
                updatedAt: ""),
            accessToken: nil, refreshToken: nil, tenantSessionID: nil, csrfToken: "csrf-me",
            createdAt: Int64(Clock.system.now()))
    }

    @Test func whatAProviderDidNotSayIsLeftOut() throws {
        let generic: [String: String?] = [
            "AUTH0_DOMAIN": nil, "ISSUER_BASE_URL": "https://id.example.org/realms/demo", "OIDC_PROVIDER": "generic",
        ]
        let said = try me(session(emailVerified: nil), environment: generic)
        #expect(said["email"]?.string == "ada@example.org")
        #expect(said["email_verified"] == nil, "the provider did not send it")
        #expect(said["user_metadata"] == nil, "this provider keeps no metadata")
        #expect(try me(session(emailVerified: false), environment: generic)["email_verified"]?.bool == false)
        let auth0 = try me(session(emailVerified: true), environment: [:])
        #expect(auth0["email_verified"]?.bool == true && auth0["user_metadata"]?["personal_affirmation"] != nil)
    }

    /// The session cookie keeps "not said" apart from false, and older cookies (a byte 0 or 1)
    /// open as they were.
    @Test func notSaidSurvivesTheCookie() throws {
        for verified in [true, false, nil] as [Bool?] {
            let bytes = session(emailVerified: verified).encoded()
            #expect(Session(encoded: bytes[...])?.profile.emailVerified == verified)
        }
    }
}
