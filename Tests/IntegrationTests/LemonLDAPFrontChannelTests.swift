import Foundation
import TestSupport
import Testing
import Web

/// Issue 58, item 7: the fifth review set Debian's LemonLDAP::NG 2.16 (an OpenID-certified
/// provider nobody here wrote) to front-channel logout for the product as README says, and the
/// session outlived the person's logout there: its logout page's iframe names the person's user id
/// as `sid` (its ID tokens carry none), and an unknown `sid` ended nothing. Here its portal runs on
/// the product's own site (127.0.0.1, another port: `Tests/Providers/lemonldap_provider.py`), a
/// person logs in to the product through it in Chromium and logs out at its portal, and the
/// iframe of its logout page, which carries the product's cookie, ends that login on every worker.
@Suite(.serialized) final class LemonLDAPFrontChannelTests {
    let stack: Stack
    static let clientID = "metadata-demo"
    static let secret = "lemonldap-client-secret-0123456789"
    /// One of the people of LemonLDAP::NG's "Demo" directory, as the package ships it.
    static let person = (user: "dwho", password: "dwho", email: "dwho@badwolf.org")

    init() throws { stack = try Stack(workers: 0) }
    deinit { stack.stop() }

    /// Starts LemonLDAP::NG's portal with the product as its relying party; its issuer.
    private func startLemonLDAP() throws -> String {
        let port = try Stack.freePort()
        try stack.start(
            "lemonldap", "/usr/bin/python3",
            [Stack.repoRoot + "/Tests/Providers/lemonldap_provider.py", "--port", String(port)]
                + ["--dir", stack.runDir + "/lemonldap", "--client-id", Self.clientID, "--client-secret", Self.secret]
                + ["--redirect-uri", stack.baseURL + "/callback", "--logged-out-uri", stack.baseURL + "/logged-out"]
                + ["--frontchannel-logout-uri", stack.baseURL + "/frontchannel-logout"])
        var ready: String?
        _ = eventually(within: 90) {
            let log = (try? stack.log("lemonldap")) ?? ""
            ready = log.split(separator: "\n").first { $0.hasPrefix("ready ") }.map { String($0.dropFirst(6)) }
            return ready != nil
        }
        return try #require(ready, "\(stack.logForAMessage("lemonldap").suffix(3000))")
    }

    /// Two workers sharing the session ledger, front-channel logout as the discovery document
    /// says (LemonLDAP::NG's says `frontchannel_logout_supported`): nothing set for it.
    private func startWorkers(issuer: String) throws {
        // LemonLDAP::NG's people have no refresh tokens here: the login asks for none.
        let settings = ["AUTH0_SCOPE": "openid profile email"]
        for index in 1...2 {
            try stack.startWorker(index, issuer: issuer, clientID: Self.clientID, secret: Self.secret, settings)
        }
    }

    @Test func itsLogoutPagesIframeEndsTheLoginOnEveryWorker() throws {
        let issuer = try startLemonLDAP()
        try startWorkers(issuer: issuer)
        let browser = try WebDriver()
        try browser.open(stack.baseURL + "/login")
        try browser.wait("LemonLDAP::NG's login form", seconds: 30) { (try? browser.find("input[name=user]")) != nil }
        try browser.type(Self.person.user, into: "input[name=user]")
        try browser.type(Self.person.password, into: "input[name=password]")
        try browser.click("button[type=submit]")
        try browser.wait("the product's logged-in page", seconds: 30) {
            (try? browser.currentURL().hasPrefix(stack.baseURL)) == true
                && (try? browser.source().contains(Self.person.email)) == true
        }
        // A copy of the session's cookie, as a thief would hold it.
        let copy = TestClient()
        for (name, value) in try browser.cookieValues() { copy.setCookie(name, value) }
        #expect(try copy.get(stack.baseURL + "/me").status == 200)

        // The person logs out at LemonLDAP::NG's portal; its page loads the product's address in
        // an iframe (with iss and the person's user id as sid), on the product's own site.
        try browser.open(issuer + "?logout=1")
        try browser.wait("LemonLDAP::NG's logout page with its iframe", seconds: 30) {
            (try? browser.source().contains("frontchannel-logout")) == true
        }
        let page = try browser.source()
        #expect(page.contains("sid=\(Self.person.user)"), "\(page.suffix(2000))")
        try expectEachWorkerRefuses(copy, stack, workers: [1, 2], within: 1)
        let log = try stack.log("worker") + stack.log("worker-2")
        #expect(log.contains("front-channel logout") && log.contains("scope=cookie"), "\(log.suffix(2000))")
        try browser.open(stack.baseURL + "/")
        #expect(try !browser.source().contains(Self.person.email), "the browser is logged out too")
    }
}
