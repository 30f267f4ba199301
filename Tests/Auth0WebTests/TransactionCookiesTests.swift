import Auth0Web
import Testing
import Web

@Suite struct TransactionCookiesTests {
    static let secret = String(repeating: "k", count: 32)
    let clock = Clock { 1_700_000_000 }

    private func header(_ cookies: [SetCookie]) -> Cookies {
        Cookies(header: cookies.filter { $0.maxAge != 0 }.map { "\($0.name)=\($0.value)" }.joined(separator: "; "))
    }

    @Test(arguments: [nil, "Hi"])
    func transactionRoundTripsByState(pending: String?) throws {
        let cookies = try TransactionCookies(secure: false, secrets: [Self.secret], clock: clock)
        let transaction = LoginTransaction.begin(returnTo: "/somewhere?x=1", pendingAffirmation: pending)
        let set = try cookies.start(transaction, existing: Cookies(header: ""))
        #expect(set.count == 1)
        #expect(set[0].name == "mdtx." + transaction.state)
        #expect(set[0].maxAge == 600)
        let found = cookies.find(state: transaction.state, in: header(set))
        #expect(found == transaction)
    }
}

@Suite struct TransactionCapTests {
    @Test func oldTransactionsAreCappedAndBrokenOnesCleared() throws {
        let time = ManualClock()
        let cookies = try TransactionCookies(
            secure: false, secrets: [String(repeating: "k", count: 32)], clock: time.clock)
        var jar: [String: String] = ["mdtx.broken": "garbage"]
        var names: [String] = []
        for _ in 0..<TransactionCookies.maxOpen + 1 {
            time.advance(1)
            let transaction = LoginTransaction.begin(returnTo: "/")
            let header = Cookies(header: jar.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
            for cookie in try cookies.start(transaction, existing: header) {
                if cookie.maxAge == 0 { jar[cookie.name] = nil } else { jar[cookie.name] = cookie.value }
            }
            names.append("mdtx." + transaction.state)
        }
        #expect(jar["mdtx.broken"] == nil)
        #expect(jar.count == TransactionCookies.maxOpen)
        #expect(jar[names[0]] == nil)  // the oldest went first
        #expect(names.dropFirst().allSatisfy { jar[$0] != nil })
    }
}

@Suite struct LogoutURLTests {
    @Test func v2AndOIDCLogoutURLs() throws {
        var env = Auth0SettingsTests.good
        let v2 = try Auth0Settings(environment: env).logoutURL(tenantSessionID: "sid-1")
        #expect(
            v2
                == "https://tenant.example.com/v2/logout?client_id=c&returnTo=https%3A%2F%2Fdemo.example.com%2Flogged-out"
        )
        env["AUTH0_LOGOUT"] = "oidc"
        let oidc = try Auth0Settings(environment: env).logoutURL(tenantSessionID: "sid-1")
        #expect(
            oidc
                == "https://tenant.example.com/oidc/logout?client_id=c&post_logout_redirect_uri=https%3A%2F%2Fdemo.example.com%2Flogged-out&logout_hint=sid-1"
        )
    }
}
