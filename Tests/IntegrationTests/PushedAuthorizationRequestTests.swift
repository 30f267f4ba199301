import Foundation
import Testing
import Web

/// Issue 41, item 3: pushed authorization requests (RFC 9126) end to end, against the dev tenant
/// with PAR allowed and required of the application as Auth0's settings do it. The worker finds
/// the endpoint in the discovery document and pushes each login's request; the browser carries
/// only the application's id and the reference, which works once; a person logs in as before.
@Suite(.serialized) final class PushedAuthorizationRequestTests: StackInBrowser {
    override class func makeStack() throws -> Stack {
        let folder = NSTemporaryDirectory() + "tenant-par-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let config = try TestTenant.writeVariant(into: folder, name: "tenant-pushing.json", pushing: true)
        return try Stack(tenantEnvironment: ["DEV_TENANT_CONFIG": config])
    }

    @Test func theBrowserCarriesOnlyTheReferenceWhichWorksOnce() throws {
        let client = TestClient()
        let authorize = try client.startLogin(stack)
        let query = try FormData(urlEncoded: Array((authorize.split(separator: "?").last ?? "").utf8))
        #expect(authorize.hasPrefix(stack.tenantURL + "/authorize?"))
        #expect(query.pairs.map(\.name) == ["client_id", "request_uri"], "\(authorize)")
        #expect(query["request_uri"]?.hasPrefix("urn:ietf:params:oauth:request_uri:") == true)
        let callback = try client.signIn(
            at: authorize, email: DemoUser.skippy.email, password: DemoUser.skippy.password)
        let landed = try client.get(callback)
        #expect(landed.status == 302 && landed.header("location") == "/", "\(landed.status) \(landed.body.prefix(300))")
        #expect(try client.get(stack.baseURL + "/").body.contains("You’re logged in!"))
        #expect(try stack.log("dev-tenant").contains("authorization request pushed"))
        let again = try TestClient().get(authorize)
        #expect(again.status == 400 && again.body.contains("invalid_request_uri"), "a reference works once")
        // The request in the query instead: the application requires PAR, so the tenant refuses it.
        let unpushed = try TestClient().get(
            stack.tenantURL + "/authorize?"
                + PercentEncoding.formEncode(
                    query.pairs.filter { $0.name == "client_id" } + [
                        ("redirect_uri", stack.baseURL + "/callback"), ("response_type", "code"), ("scope", "openid"),
                    ]))
        #expect(unpushed.header("location")?.contains("error=invalid_request") == true)
    }

    /// In Chromium, in English and Chinese: the tenant's page in the person's language (the
    /// language went with the push), nothing of the request in the address bar, and in.
    @Test(arguments: ["en", "zh"]) func aPersonLogsInAsBefore(language: String) throws {
        do {
            try browser.open(stack.baseURL + "/lang/" + language)
            try browser.open(stack.baseURL + "/login")
            try waitForTenantLogin()
            let address = try browser.currentURL()
            #expect(!address.contains("code_challenge") && !address.contains("nonce") && !address.contains("state"))
            #expect(try browser.attribute("html", "lang")?.hasPrefix(language) == true)
            try submitTenantLogin(DemoUser.skippy)
            try browser.wait("the consent screen") { try browser.findAll("button[value=accept]").count == 1 }
            try browser.click("button[value=accept]")
            try browser.wait("the logged-in page") { try browser.currentURL() == stack.baseURL + "/" }
            #expect(try browser.text("h1") == (language == "en" ? "You’re logged in!" : "你已登录！"))
        } catch {
            browser.recordFailure("par-login-\(language)")
            throw error
        }
    }

    /// A worker told to push against a provider that lists no endpoint does not start: one line
    /// names the setting.
    @Test func requiredAgainstAProviderWithoutTheEndpointStopsStartUp() throws {
        let plain = try Stack()
        defer { plain.stop() }
        var environment = plain.devEnvironment
        environment["PUSHED_AUTHORIZATION_REQUESTS"] = "required"
        let checked = try Stack.run(Stack.binDir + "/metadata-demo", ["check-config"], environment: environment)
        #expect(checked.status == 1, "\(checked.output)")
        #expect(
            checked.output.contains("PUSHED_AUTHORIZATION_REQUESTS: required, but the provider"), "\(checked.output)")
    }
}
