/// The API tokens one worker has seen, by login, API and scopes: found on a page view without
/// making or hashing a string. A login's entries sit under its `Session.loginKey`, and each is then
/// compared whole with the login's token, the API and the scopes, so two logins whose first bytes
/// agree never share.
struct APITokenMemo {
    private struct Entry {
        let login: String
        let audience: String
        let scope: String
        let token: APIToken
    }
    private var byLogin: [UInt64: [Entry]] = [:]
    /// How many tokens are remembered.
    private(set) var count = 0

    /// The remembered token of the login whose CSRF token is `login`, for `audience` and `scope`.
    func token(login: String, audience: String, scope: String) -> APIToken? {
        byLogin[Self.bucket(login)]?.first { $0.login == login && $0.audience == audience && $0.scope == scope }?.token
    }

    /// Remembers `token`, replacing one for the same login, API and scopes.
    mutating func remember(_ token: APIToken, login: String, audience: String, scope: String) {
        let entry = Entry(login: login, audience: audience, scope: scope, token: token)
        var entries = byLogin[Self.bucket(login), default: []]
        if let index = entries.firstIndex(where: { $0.login == login && $0.audience == audience && $0.scope == scope })
        {
            entries[index] = entry
        } else {
            entries.append(entry)
            count += 1
        }
        byLogin[Self.bucket(login)] = entries
    }

    /// Forgets everything (bounded: the next view finds the token in the store again).
    mutating func removeAll() {
        byLogin.removeAll(keepingCapacity: true)
        count = 0
    }

    private static func bucket(_ login: String) -> UInt64 { Session.loginKey(csrfToken: login) }
}
