import Auth0Web
import Web

/// One request's scope, built once by the pipeline (`MetadataDemo`) and lent to every stage and
/// handler, as hummingbird's `RequestContext` is: the request, its cookies parsed once, its
/// session (opened when first read), the pages in its language, a log whose records carry its
/// id, and whether it may wait on another service where it is being answered.
final class RequestContext {
    /// The request.
    let request: Request
    /// The cookies the browser sent, parsed once.
    let cookies: Cookies
    /// The log, every record with the request's id.
    let log: RequestLog
    /// False on a page thread, where nothing may wait on the tenant or the shared store
    /// (`Responder.respondWithoutWaiting`); see `requireWaiting()`.
    let mayWait: Bool
    private let sessionContext: SessionContext
    private let localizedPages: LocalizedPages

    /// The context of `request`, its session opened from `sessions` and judged by `ledger`.
    init(
        _ request: Request, mayWait: Bool, pages: LocalizedPages, sessions: SessionCookies, ledger: SessionLedger,
        log: Log
    ) {
        self.request = request
        self.mayWait = mayWait
        localizedPages = pages
        self.log = RequestLog(log, requestID: request.requestID)
        cookies = request.cookies
        sessionContext = SessionContext(cookies: cookies, path: request.path, sessions: sessions, ledger: ledger)
    }

    /// The pages' language: the one chosen with the switch, else the browser's.
    private(set) lazy var language = Language.of(request, cookies: cookies)

    /// The pages in the request's language.
    var pages: Pages { localizedPages[language] }

    /// Throws `WaitRequired` when the request may not wait here; call it before doing anything
    /// that cannot be done twice, since the request is then answered again from the start.
    func requireWaiting() throws(WaitRequired) {
        if !mayWait { throw WaitRequired() }
    }

    // MARK: The session

    /// The person's session, or nil for a logged-out visitor (whatever their cookies say).
    var session: Session? { sessionContext.session }

    /// True when this request ended the session.
    var endedSessionHere: Bool { sessionContext.endedHere }

    /// Starts a new session (a login).
    func startSession(_ session: Session) { sessionContext.start(session) }

    /// Ends the session: every session cookie is cleared.
    func endSession() { sessionContext.end() }

    /// Changes the session; what `body` changed is kept even when it throws.
    func updateSession(_ body: (inout Session) throws -> Void) rethrows { try sessionContext.update(body) }

    /// True when the session was last checked with the tenant `interval` or more seconds before `now`.
    func isDueForRevalidation(now: Int64, interval: Int64) -> Bool {
        sessionContext.isDueForRevalidation(now: now, interval: interval)
    }

    /// Shows `flash` once, on the next page.
    func setFlash(_ flash: Flash) { sessionContext.setFlash(flash.stored) }

    /// The one-time notice a previous answer left for this page, if any.
    func takeFlash() -> Flash? { sessionContext.takeFlash().map(Flash.init(stored:)) }

    /// True when `token` (a form's `csrf` field) is the session's CSRF token.
    func isValidCSRFToken(_ token: String?) -> Bool { sessionContext.isValidCSRFToken(token) }

    /// Tells `registry` the session was used (for "Your sessions").
    func noteSessionUse(in registry: SessionRegistry) {
        sessionContext.noteUse(in: registry, userAgent: self.request.header("user-agent"))
    }

    /// The `Set-Cookie` values the answer must carry for the session and its flash.
    func sessionCookies() throws -> [SetCookie] { try sessionContext.setCookies() }
}
