import Foundation
import Testing

/// Issue 41, item 1, end to end: an application registered for HS256 at the tenant (Auth0's
/// `jwt_configuration.alg`, as the dev tenant implements it) gets ID tokens signed with its
/// client secret; the worker told so (`ID_TOKEN_SIGNING_ALG=HS256`) logs the person in, and one
/// that expects RS256 refuses the login ("Login not verified"), as it refuses any algorithm but
/// the registered one.
@Suite(.serialized) struct SigningAlgorithmTests {
    private static let hs256Client = [
        "AUTH0_CLIENT_ID": "metadata-demo-hs256",
        "AUTH0_CLIENT_SECRET": "dev-hs256-client-secret-not-for-production-0123456789",
    ]

    @Test func anHS256ApplicationLogsInWhenTheWorkerIsToldSo() throws {
        let stack = try Stack(workerEnvironment: Self.hs256Client.merging(["ID_TOKEN_SIGNING_ALG": "HS256"]) { $1 })
        defer { stack.stop() }
        let browser = TestClient()
        let landed = try browser.logIn(stack, as: DemoUser.skippy)
        #expect(landed.status == 302 && landed.header("location") == "/", "\(landed.status) \(landed.body.prefix(300))")
        let home = try browser.get(stack.baseURL + "/")
        #expect(home.body.contains("You’re logged in!"))
    }

    @Test func aWorkerExpectingRS256RefusesAnHS256Token() throws {
        let stack = try Stack(workerEnvironment: Self.hs256Client)
        defer { stack.stop() }
        let browser = TestClient()
        let landed = try browser.logIn(stack, as: DemoUser.skippy)
        #expect(landed.body.contains("Login not verified"), "\(landed.status) \(landed.body.prefix(300))")
        #expect(!(try browser.get(stack.baseURL + "/").body.contains("You’re logged in!")))
        #expect(try stack.log("worker").contains("HS256"))
    }
}
