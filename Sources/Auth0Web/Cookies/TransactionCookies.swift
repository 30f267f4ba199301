import Web

/// Login transactions as short-lived sealed cookies, one per `state`, so two tabs logging in
/// at once both work; old ones are capped and cleared.
public struct TransactionCookies: Sendable {
    /// How long a login may take.
    public static let lifetime: Int64 = 600
    /// At most this many logins in progress per browser; the oldest are cleared.
    public static let maxOpen = 4
    /// At most this many broken or surplus transaction cookies are cleared per answer (the rest
    /// at the next logins): a page of the same site can plant any number of such names, and an
    /// answer clearing each one grew a head past what nginx takes.
    static let maxCleared = 8

    /// The cookie name prefix; the state follows it.
    public let prefix: String
    private let secure: Bool
    private let sealer: CookieSealer

    /// Transaction cookies sealed with `secrets` (`Secure` and `__Host-` when `secure`).
    public init(secure: Bool, secrets: [String], clock: Clock) throws {
        self.secure = secure
        prefix = secure ? "__Host-mdtx." : "mdtx."
        sealer = try CookieSealer(secrets: secrets, purpose: "login-transaction", clock: clock)
    }

    /// The cookie that holds `transaction`, plus cookies that clear older or broken ones.
    public func start(_ transaction: LoginTransaction, existing cookies: Cookies) throws -> [SetCookie] {
        let name = prefix + transaction.state
        let value = try sealer.seal(transaction.encoded(), name: name, lifetime: TransactionCookies.lifetime)
        var open: [(name: String, issuedAt: Int64)] = []
        var broken: [String] = []
        for (oldName, oldValue) in cookies.named(withPrefix: prefix) {
            if let opened = sealer.open(oldValue, name: oldName) {
                open.append((oldName, opened.issuedAt))
            } else {
                broken.append(oldName)
            }
        }
        // The oldest logins past the limit first, then broken ones, up to the cap.
        let surplus = open.sorted(by: { $0.issuedAt < $1.issuedAt }).dropLast(TransactionCookies.maxOpen - 1)
        let cleared = (surplus.map(\.name) + broken).prefix(TransactionCookies.maxCleared)
        return [SetCookie(name: name, value: value, maxAge: Int(TransactionCookies.lifetime), secure: secure)]
            + cleared.map { SetCookie.expired($0, secure: secure) }
    }

    /// The transaction for `state`, when its cookie came back intact and in time.
    public func find(state: String, in cookies: Cookies) -> LoginTransaction? {
        guard !state.isEmpty, state.utf8.allSatisfy(SetCookie.isTokenByte) else { return nil }
        let name = prefix + state
        guard cookies.count(of: name) == 1, let value = cookies[name], let opened = sealer.open(value, name: name),
            let transaction = LoginTransaction(encoded: opened.payload), transaction.state == state
        else { return nil }
        return transaction
    }

    /// Clears the cookie of `state` (a transaction is used once).
    public func finish(state: String) -> SetCookie? {
        guard !state.isEmpty, state.utf8.count <= 128, state.utf8.allSatisfy(SetCookie.isTokenByte) else { return nil }
        return .expired(prefix + state, secure: secure)
    }
}
