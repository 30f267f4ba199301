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

    /// Review 3, item 5: each broken transaction cookie got a clearing `Set-Cookie`, so 500
    /// planted `mdtx.*` names made a head nginx refused (502 at /login). At most eight are
    /// cleared per answer, the oldest surplus logins first.
    @Test func aLoginClearsAtMostEightOldOrBrokenTransactions() throws {
        let cookies = try TransactionCookies(secure: false, secrets: [Self.secret], clock: clock)
        var jar: [SetCookie] = []
        for _ in 0..<6 {
            jar += try cookies.start(.begin(returnTo: "/", pendingAffirmation: nil), existing: Cookies(header: ""))
        }
        let planted = (0..<500).map { "mdtx.planted\($0)=x" }.joined(separator: "; ")
        let existing = Cookies(header: planted + "; " + jar.map { "\($0.name)=\($0.value)" }.joined(separator: "; "))
        let set = try cookies.start(.begin(returnTo: "/", pendingAffirmation: nil), existing: existing)
        #expect(set.count == 9)
        #expect(set.dropFirst().allSatisfy { $0.maxAge == 0 })
        #expect(set.dropFirst().prefix(3).allSatisfy { !$0.name.contains("planted") }, "surplus logins first")
    }
}
