import Auth0Web
import TestSupport
import Testing
import Web

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
