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
