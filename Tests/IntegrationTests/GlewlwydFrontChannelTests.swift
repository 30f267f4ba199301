import Foundation
import TestSupport
import Testing
import Web

/// Issue 50, item 3: OpenID Connect Front-Channel Logout 1.0 with Debian's Glewlwyd, which loads
/// each client's `frontchannel_logout_uri` in an iframe of its end-session page with `iss` and
/// `sid`. Glewlwyd runs on `localhost`, another site than the product's 127.0.0.1, so its
/// iframe carries none of the product's `SameSite=Lax` cookies, and it sends no back-channel
/// logout here: whatever ends a login is the front channel.
extension GlewlwydTests {
    /// Two workers on Glewlwyd, sharing the session ledger (nginx reaches the first; the tests
    /// ask each on its own socket), with front-channel logout on: Glewlwyd 2.7 calls it without
    /// saying `frontchannel_logout_supported` in its discovery document, so it is set, as README says.
    private func startWorkers(issuer: String) throws {
        let on = ["FRONTCHANNEL_LOGOUT": "on"]
        try startWorker(issuer: issuer, on)
        try stack.startWorker(2, issuer: issuer, clientID: Self.clientID, secret: Self.secret, on)
    }

    /// The address Glewlwyd's page loads, as it writes it: `iss` and `sid` appended unencoded.
    private func frontChannel(iss: String, sid: String) -> String {
        stack.baseURL + "/frontchannel-logout?iss=" + iss + "&sid=" + sid
    }

    /// With `iss` and `sid` and no cookie at all, the logins of that provider session end on
    /// every worker; a wrong `iss` or an unknown `sid` end nothing; the answer is never cached
    /// and only the provider's origin may frame it. Without them, the session of the cookie
    /// that came ends, and a copy of that cookie with it.
    @Test func aFrontChannelLogoutEndsTheLoginsItNamesOnEveryWorker() throws {
        let issuer = try startGlewlwyd(frontChannel: true)
        try startWorkers(issuer: issuer)
        let (laptop, tab) = try twoLoginsOfOneSession(issuer)
        let sid = try logOutOfTheProduct(laptop)
        let iframe = TestClient()  // a cross-site iframe: none of the product's cookies
        for (iss, named) in [("https://elsewhere.example/api/oidc", sid), (issuer, "not-a-session")] {
            let answer = try iframe.get(frontChannel(iss: iss, sid: named))
            #expect(answer.status == 200)
            #expect(try tab.get(stack.baseURL + "/me").status == 200, "\(iss) \(named) ended the login")
        }
        let answer = try iframe.get(frontChannel(iss: issuer, sid: sid))
        #expect(answer.status == 200 && answer.header("cache-control") == "no-cache, no-store")
        let policy = answer.header("content-security-policy") ?? ""
        #expect(policy.contains("frame-ancestors http://localhost:"), "\(policy)")
        #expect(!policy.contains("frame-ancestors 'none'") && answer.header("x-frame-options") != "DENY")
        try expectEachWorkerRefuses(tab, stack, workers: [1, 2], within: 5)
        let log = try stack.log("worker") + stack.log("worker-2")
        #expect(log.contains("front-channel logout refused") && log.contains("scope=session"))

        // A provider on the product's own site sends the cookie instead, from its iframe alone:
        // a top-level navigation from another site (a link) carries the cookie too, and ends nothing.
        let other = TestClient()
        #expect(try logIn(other, issuer: issuer).header("location") == "/")
        let copy = other.copy()
        let link: [(name: String, value: String)] = [("Sec-Fetch-Dest", "document"), ("Sec-Fetch-Site", "cross-site")]
        #expect(try other.get(stack.baseURL + "/frontchannel-logout", headers: link).status == 200)
        #expect(try copy.copy().get(stack.baseURL + "/me").status == 200, "a link from another site logged out")
        let framed: [(name: String, value: String)] = [("Sec-Fetch-Dest", "iframe"), ("Sec-Fetch-Site", "same-site")]
        #expect(try other.get(stack.baseURL + "/frontchannel-logout", headers: framed).status == 200)
        try expectEachWorkerRefuses(copy, stack, workers: [1, 2], within: 5)
        #expect(try stack.metric("metadata_demo_frontchannel_logouts_total") >= 2)
    }

    /// The whole walk in Chromium: a person with two logins of the product in one Glewlwyd
    /// session logs out of one; Glewlwyd's own end-session page, confirmed, loads the product's
    /// front-channel address in its iframe, and the other login (a copy of its cookie included)
    /// is refused at once, on every worker.
    @Test func theProvidersEndSessionPageEndsTheOtherLoginThroughItsIframe() throws {
        let issuer = try startGlewlwyd(frontChannel: true)
        try startWorkers(issuer: issuer)
        let (laptop, tab) = try twoLoginsOfOneSession(issuer)
        let copyOfTab = tab.copy()

        let browser = try WebDriver()
        // The laptop's cookies in Chromium: the product's on its host, Glewlwyd's on localhost.
        let glewlwyd = String(issuer.dropLast("/api/oidc".count))
        for origin in [stack.baseURL, glewlwyd] {
            try browser.open(origin + "/favicon.ico")
            for (name, value) in laptop.cookies {
                for path in laptop.paths(of: name) { try browser.addCookie(name, value, path: path) }
            }
        }
        try browser.open(stack.baseURL + "/")
        #expect(try browser.source().contains("ada@example.org"))
        try browser.open(stack.baseURL + "/logout")
        try browser.click("form[action='/logout'] button")
        try browser.wait("Glewlwyd's end-session page", seconds: 20) {
            (try? browser.currentURL().hasPrefix(glewlwyd)) == true && (try? browser.find("button.btn-danger")) != nil
        }
        try browser.click("button.btn-danger")
        // Its page loads the iframes, then ends its session; nothing else reaches the product.
        try browser.wait("the other login refused", seconds: 20) {
            try tab.copy().get(stack.baseURL + "/me").status == 401
        }
        try expectEachWorkerRefuses(copyOfTab, stack, workers: [1, 2], within: 5)
        let log = try stack.log("worker") + stack.log("worker-2")
        #expect(log.contains("front-channel logout") && log.contains("scope=session"), "\(log.suffix(2000))")
    }
}
