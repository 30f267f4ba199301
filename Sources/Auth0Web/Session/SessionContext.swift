import OpenSSLCrypto
import Web

/// One request's session, kept the way hummingbird-auth's `SessionMiddleware` keeps it: the
/// session opened at most once and only when asked for, changes made through this object, and
/// one place (`setCookies()`) that decides what the answer writes. Nothing is written unless the
/// session changed, started or ended, its rolling lifetime is due to be extended, a flash was set
/// or shown, or the browser sent a cookie that did not open or whose session the ledger says has
/// ended (a copy kept after logout is a logged-out visitor, and so is a request that changed a
/// session the ledger ended meanwhile).
public final class SessionContext {
    /// The request's cookies.
    public let cookies: Cookies
    private let sessions: SessionCookies
    private let ledger: SessionLedger?
    private let includesAccessToken: Bool
    /// What the browser sent (names, when sealed); nil until the session is opened or replaced.
    private var sent: SessionCookies.Loaded?
    /// The session; nil for a logged-out visitor.
    private var current: Session?
    private var change = Change.none
    private var newFlash: String?
    private var flashTaken = false

    private enum Change { case none, updated, started, ended }

    /// The session context of a request to `path` that sent `cookies`; sessions that `ledger`
    /// says have ended do not open.
    public init(cookies: Cookies, path: String, sessions: SessionCookies, ledger: SessionLedger? = nil) {
        self.cookies = cookies
        self.sessions = sessions
        self.ledger = ledger
        includesAccessToken = sessions.carriesAccessToken(path: path)
    }

    /// The person's session, or nil for a logged-out visitor (whatever their cookies say). Opened
    /// on first use; the access token only where the browser sends it.
    public var session: Session? {
        openIfNeeded()
        return current
    }

    /// True when this request ended the session (`end()`).
    public var endedHere: Bool { change == .ended }

    /// True when the session was last checked with the tenant `interval` or more seconds before
    /// `now` and holds a refresh token to check it with.
    public func isDueForRevalidation(now: Int64, interval: Int64) -> Bool {
        openIfNeeded()
        guard let current, current.refreshToken != nil else { return false }
        return now - current.checkedAt >= interval
    }

    /// Changes the session (a no-op for a logged-out visitor). What `body` changed is kept even
    /// when it throws: renewed tokens must be stored whatever the call after them did.
    public func update(_ body: (inout Session) throws -> Void) rethrows {
        guard var session else { return }
        change = .updated
        defer { current = session }
        try body(&session)
    }

    /// Tells `registry` the session was used (for "Your sessions"): a look-up on most page views,
    /// a queued write at most every 5 minutes.
    public func noteUse(in registry: SessionRegistry, userAgent: @autoclosure () -> String?) {
        openIfNeeded()
        guard let token = current?.csrfToken, registry.isDue(csrfToken: token), let session = current else { return }
        registry.used(session, userAgent: userAgent())
    }

    /// Starts a new session (a login), replacing every session cookie the browser sent.
    public func start(_ session: Session) {
        if sent == nil { sent = sessions.sent(in: cookies) }  // no need to open what is replaced
        current = session
        change = .started
    }

    /// Ends the session: every session cookie is cleared.
    public func end() {
        if sent == nil { sent = sessions.sent(in: cookies) }
        current = nil
        change = .ended
    }

    /// Shows `message` once, on the next page.
    public func setFlash(_ message: String) { newFlash = message }

    /// The message a previous answer left for this page, if any; it is shown once.
    public func takeFlash() -> String? {
        flashTaken = true
        return sessions.openFlash(from: cookies)
    }

    /// True when `token` (a form's `csrf` field) is the session's CSRF token.
    public func isValidCSRFToken(_ token: String?) -> Bool {
        openIfNeeded()
        guard let token, let expected = current?.csrfToken else { return false }
        return ConstantTime.equal(Array(token.utf8), Array(expected.utf8))
    }

    /// The `Set-Cookie` values this answer must carry; throws `SessionTooLarge` when the session
    /// would not fit in the cookies browsers keep.
    public func setCookies() throws -> [SetCookie] {
        var out: [SetCookie] = []
        if let sent {
            switch change {
            case .updated where ledger?.hasEnded(current) == true:
                // Ended while this request waited on the tenant (a logout in another tab, on
                // another host): its answer must not hand the browser the session again.
                out += sessions.clear(sent)
            case .started, .updated:
                if let current { out += try sessions.store(current, replacing: sent) }
            case .ended:
                out += sessions.clear(sent)
            case .none:
                if let current {
                    if sessions.needsTouch(issuedAt: sent.issuedAt) {
                        out += try sessions.store(current, replacing: sent)  // extends the rolling lifetime
                    }
                } else if !sent.sentNames.isEmpty {
                    // A tampered, expired or foreign cookie is forgotten, not trusted and not fatal.
                    out += sessions.clear(sent)
                }
            }
        }
        if let newFlash, change != .ended {
            out += try sessions.storeFlash(newFlash)
        } else if flashTaken || change == .ended, sessions.carriesFlash(cookies) {
            out += sessions.clearFlash()
        }
        return out
    }

    private func openIfNeeded() {
        guard sent == nil else { return }
        var opened = sessions.load(from: cookies, includingAccessToken: includesAccessToken)
        var session = opened.takeSession()
        // An ended session is a logged-out visitor: its cookies (the access token's too) are cleared.
        if let ledger, ledger.hasEnded(session) { session = nil }
        current = session
        sent = opened
    }
}
