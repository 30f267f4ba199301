import Foundation
import Locking
import Testing
import Web

/// The demo people of `deploy/dev-tenant/tenant.json`.
enum DemoUser {
    static let skippy = (email: "skippy@example.com", password: "Skippy-the-kangaroo-1!")
    static let random = (email: "randomuser@example.com", password: "Random-user-2022!")
}

/// The steps a person's browser takes through Universal Login, one request at a time.
extension TestClient {
    /// `GET /login` on the product: the tenant's `/authorize` URL it redirects to.
    func startLogin(_ stack: any TestSite, returnTo: String? = nil) throws -> String {
        let path = returnTo.map { "/login?returnTo=" + PercentEncoding.encode($0) } ?? "/login"
        let answer = try get(stack.baseURL + path)
        guard answer.status == 302, let location = answer.header("location") else {
            throw StackError("login did not redirect: \(answer.status)")
        }
        return location
    }

    /// Opens the tenant's login page and signs in; returns the callback URL the tenant sends back to.
    func signIn(at authorizeURL: String, email: String, password: String) throws -> String {
        var answer = try get(authorizeURL)
        let tenant = authorizeURL.components(separatedBy: "/authorize")[0]
        if answer.status != 302 {  // no tenant session yet: the login form
            guard let tx = TestClient.hiddenField("tx", in: answer.body), answer.body.contains("action=\"/u/login\"")
            else { throw StackError("no login form: \(answer.body)") }
            answer = try post(
                tenant + "/u/login", form: [("tx", tx), ("email", email), ("password", password), ("action", "login")],
                headers: [("Origin", tenant)])
        }
        answer = try acceptConsent(answer, tenant: tenant)
        guard answer.status == 302, let location = answer.header("location") else {
            throw StackError("sign-in refused: \(answer.status)")
        }
        return location
    }

    /// The tenant's one-time-code page (a login asking for the multi-factor policy) answered with
    /// `code`, by default one of the person's that the tenant accepts now and has not seen
    /// (`OneTimeCodes.fresh`); any other answer is returned as it is.
    func passCode(_ answer: Answer, tenant: String, email: String, code: String? = nil) throws -> Answer {
        guard answer.body.contains("action=\"/u/mfa\""), let tx = TestClient.hiddenField("tx", in: answer.body) else {
            return answer
        }
        let code = try code ?? OneTimeCodes.fresh(for: email, at: tenant)
        return try post(
            tenant + "/u/mfa", form: [("tx", tx), ("code", code), ("action", "verify")], headers: [("Origin", tenant)])
    }

    /// Opens `page` of a mini app (Account), which asks for a second factor: the check's login link asks for
    /// it, the tenant asks for the code (the person's current one), and the browser comes back
    /// to `page`, answered.
    func stepUp(_ stack: any TestSite, _ email: String, at page: String, code: String? = nil) throws -> Answer {
        let first = try get(stack.baseURL + page)
        guard first.status == 302, let login = first.header("location") else { return first }
        let authorize = try #require(try get(login).header("location"))
        let tenant = authorize.components(separatedBy: "/authorize")[0]
        var answer = try passCode(try get(authorize), tenant: tenant, email: email, code: code)
        answer = try acceptConsent(answer, tenant: tenant)
        guard answer.status == 302, let callback = answer.header("location") else { return answer }
        let back = try get(callback)
        #expect(back.header("location") == page)
        return try get(stack.baseURL + page)
    }

    /// The tenant's "Authorize App" screen (a person's first login to the app) answered with
    /// Accept; any other answer is returned as it is.
    func acceptConsent(_ answer: Answer, tenant: String) throws -> Answer {
        guard answer.status == 200, answer.body.contains("action=\"/u/consent\""),
            let tx = TestClient.hiddenField("tx", in: answer.body)
        else { return answer }
        return try post(tenant + "/u/consent", form: [("tx", tx), ("action", "accept")], headers: [("Origin", tenant)])
    }

    /// The whole login: product → tenant → callback; returns the callback's answer.
    @discardableResult
    func logIn(
        _ stack: any TestSite, as user: (email: String, password: String), returnTo: String? = nil
    ) throws -> Answer {
        let callback = try signIn(
            at: try startLogin(stack, returnTo: returnTo), email: user.email, password: user.password)
        return try get(callback)
    }

    /// A hidden input's value in a page.
    static func hiddenField(_ name: String, in html: String) -> String? {
        guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        let rest = html[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
}

/// The demo people's one-time codes as their authenticator shows them (`scripts/demo-totp`,
/// computed apart from the tenant's own code). The tenant accepts each code once, as Auth0 does,
/// and the codes of the current time step and the next: a test that logs one person in again
/// with a second factor uses the next step's code, or waits for one.
enum OneTimeCodes {
    /// The last time step whose code each person used at each tenant.
    private static let used = Lock<[String: Int64]>([:])

    /// A code of `email`'s authenticator the tenant at `tenant` accepts now and has not seen.
    static func fresh(for email: String, at tenant: String) throws -> String {
        while true {
            let current = Int64(Date().timeIntervalSince1970 / 30)
            let step = used.withLock { used -> Int64? in
                let key = tenant + " " + email
                let step = max(current, (used[key] ?? current - 1) + 1)
                guard step <= current + 1 else { return nil }
                used[key] = step
                return step
            }
            if let step {
                return try Stack.check(Stack.repoRoot + "/scripts/demo-totp", [email, "--at", String(step * 30 + 15)])
                    .trimmingWhitespace()
            }
            Thread.sleep(forTimeInterval: 1)  // both steps' codes are spent: the next step brings one
        }
    }
}
