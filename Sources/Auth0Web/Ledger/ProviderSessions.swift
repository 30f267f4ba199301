import Web

/// The provider sessions (`sid`) that logins of this product were made in, as their ID tokens
/// named them, so a front-channel logout, which anyone can send, ends only what a login here
/// holds: an unknown `sid` is looked up and nothing is written anywhere. Each is kept in the
/// shared store (one key, however many logins share it) while its logins could live, and
/// forgotten when a front-channel logout ends it, so asking again writes nothing either.
public final class ProviderSessions: Sendable {
    /// The longest `sid` looked up or recorded: OpenID providers' session ids are tens of bytes;
    /// a longer one is refused before any lookup.
    public static let longestSID = 256
    private let store: any SharedStore
    private let retentionSeconds: Int64
    /// Told when the store fails an operation (the ledger's outage report).
    private let reportFailure: @Sendable (String, any Error) -> Void

    init(
        store: any SharedStore, retentionSeconds: Int64, reportFailure: @escaping @Sendable (String, any Error) -> Void
    ) {
        self.store = store
        self.retentionSeconds = retentionSeconds
        self.reportFailure = reportFailure
    }

    /// Records that a login was made in the provider session `sid` (at the callback).
    public func began(_ sid: String) {
        guard Self.isLookupable(sid) else { return }
        do { try store.set(Self.key(sid), [1], ttl: Double(retentionSeconds)) } catch { reportFailure("set", error) }
    }

    /// True when a login of this product was made in `sid` and not yet ended by a front-channel
    /// logout; it is forgotten now, so the same request again finds nothing. Throws when the
    /// store cannot say (reported: the logout then ends nothing, rather than writing for anyone).
    public func take(_ sid: String) throws(SharedStoreError) -> Bool {
        guard Self.isLookupable(sid) else { return false }
        let key = Self.key(sid)
        var operation = "get"
        do {
            guard try store.get(key) != nil else { return false }
            operation = "remove"
            try store.remove(key, ifValue: [1])
            return true
        } catch {
            reportFailure(operation, error)
            throw error
        }
    }

    /// A `sid` worth looking up: not empty, and no longer than `longestSID`.
    public static func isLookupable(_ sid: String) -> Bool { !sid.isEmpty && sid.utf8.count <= longestSID }

    private static func key(_ sid: String) -> String { "provider-session:" + sid }
}
