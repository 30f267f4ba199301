/// What the Auth0 mechanisms report as they work, for the product's metrics and log; every
/// method has a default that does nothing.
public protocol Auth0Events: Sendable {
    /// An access token was renewed with a refresh token.
    func renewed()
    /// A renewal failed, with the stable code of why.
    func renewalFailed(reason: String)
    /// A Management API call answered: its status, or `timeout`/`unreachable`.
    func managementCall(outcome: String)
    /// `app_metadata.announcement_url` was not a safe link, so no announcement is shown.
    func announcementRefused(user: String)
    /// The session ledger's shared store failed an operation (`append`, `follow`, `add`, `lock`);
    /// `firstOfOutage` is true for the first failure after it last worked.
    func ledgerFailed(operation: String, error: String, firstOfOutage: Bool)
    /// The session ledger's shared store works again after failing.
    func ledgerRecovered()
    /// The session ledger's store came back without its log or part of it (empty, or from an
    /// older copy); this worker wrote `rewritten` ended sessions it remembered back into it.
    func ledgerStoreReset(rewritten: Int)
}

extension Auth0Events {
    /// Does nothing by default.
    public func renewed() {}
    /// Does nothing by default.
    public func renewalFailed(reason: String) {}
    /// Does nothing by default.
    public func managementCall(outcome: String) {}
    /// Does nothing by default.
    public func announcementRefused(user: String) {}
    /// Does nothing by default.
    public func ledgerFailed(operation: String, error: String, firstOfOutage: Bool) {}
    /// Does nothing by default.
    public func ledgerRecovered() {}
    /// Does nothing by default.
    public func ledgerStoreReset(rewritten: Int) {}
}

/// Reports nothing.
public struct NoAuth0Events: Auth0Events {
    /// Events that go nowhere (tests, tools).
    public init() {}
}
