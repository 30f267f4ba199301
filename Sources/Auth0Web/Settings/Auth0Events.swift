/// What the Auth0 mechanisms report as they work, for the product's metrics and log.
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

/// The defaults report nothing; what they would report happens all the same.
extension Auth0Events {
    /// The renewal is not counted; the new token is used.
    public func renewed() {}
    /// Not counted; the caller still gets the error.
    public func renewalFailed(reason: String) {}
    /// Not counted by outcome; the call's answer is used as it is.
    public func managementCall(outcome: String) {}
    /// Not logged; the page shows no announcement either way.
    public func announcementRefused(user: String) {}
    /// Not reported; the ledger tries the store again on its next step.
    public func ledgerFailed(operation: String, error: String, firstOfOutage: Bool) {}
    /// Not reported; the ledger goes on following the store.
    public func ledgerRecovered() {}
    /// Not reported; the remembered ended sessions are written back all the same.
    public func ledgerStoreReset(rewritten: Int) {}
}

/// Reports nothing.
public struct NoAuth0Events: Auth0Events {
    /// Events that go nowhere (tests, tools).
    public init() {}
}
