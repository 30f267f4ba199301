import OpenSSLCrypto
import Web

/// One request's session, kept the way hummingbird-auth's `SessionMiddleware` keeps it: the
/// cookies parsed once, the session opened at most once and only when a handler asks, changes
/// made through this object, and one place (`setCookies()`) that decides what the answer
/// writes. Nothing is written unless the session changed, started or ended, its rolling lifetime
/// is due to be extended, a flash was set or shown, or the browser sent a cookie that did not open
/// or whose session the ledger says has ended (a copy kept after logout is a logged-out visitor,
/// and so is a request that changed a session the ledger ended meanwhile).
/// One per request, a value the pipeline owns and lends to the route (`inout`): no allocation
/// and no dynamic exclusivity checks on the request path.
public struct SessionContext {
    /// The request's cookies, parsed once.
    public let cookies: Cookies
    private let sessions: SessionCookies
    private let ledger: SessionLedger?
    private let includesAccessToken: Bool
    /// What the browser sent (names, when sealed); the session itself lives in `current` only,
    /// so a page view holds one copy of it.
    private var sent: SessionCookies.Loaded?
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

    /// The person's session, or nil for a logged-out visitor (whatever their cookies say).
    /// Opened on first use (`mutating` for that), the access token only where the browser sends
    /// it; read in place, so a page view borrows it rather than copying its dozen strings.
    public var session: Session? {
        mutating _read {
            loadIfNeeded()
            yield current
        }
    }

    /// `body`'s answer with the session lent to it, or nil for a logged-out visitor. Unwrapping
    /// `session` in an argument copies the whole session (a dozen strings); this does not.
    public mutating func withSession<Result>(_ body: (Session) throws -> Result) rethrows -> Result? {
        loadIfNeeded()
        switch current {
        case .some(let session): return try body(session)
        case .none: return nil
        }
    }

    /// True when a valid session came (opening it if not done yet).
    public mutating func isLoggedIn() -> Bool {
        loadIfNeeded()
        if case .some = current { return true }  // a match, not a copy
        return false
    }

    /// True when the session was last checked with the tenant `interval` or more seconds before
    /// `now` and holds a refresh token to check it with. Reads two fields in place: a page view
    /// that is not due copies nothing.
    public mutating func isDueForRevalidation(now: Int64, interval: Int64) -> Bool {
        loadIfNeeded()
        guard let checkedAt = current?.checkedAt, current?.refreshToken != nil else { return false }
        return now - checkedAt >= interval
    }

    private mutating func loadIfNeeded() {
        guard sent == nil else { return }
        var opened = sessions.load(from: cookies, includingAccessToken: includesAccessToken)
        current = opened.takeSession()
        // An ended session is a logged-out visitor: its cookies (the access token's too) are cleared.
        if let ledger, ledger.hasEnded(current) { current = nil }  // borrowed, not copied
        sent = opened
    }

    /// Changes the session in place (a no-op for a logged-out visitor). What `body` changed is
    /// kept even when it throws: renewed tokens must be stored whatever the call after them did.
    public mutating func update(_ body: (inout Session) throws -> Void) rethrows {
        guard isLoggedIn() else { return }
        change = .updated
        try body(&current!)  // inout: what was changed before a throw is written back
    }

    /// Tells `registry` the session was used (for "Your sessions"), reading it in place: a
    /// look-up on most page views, a queued write at most every 5 minutes.
    public mutating func noteUse(in registry: SessionRegistry, userAgent: @autoclosure () -> String?) {
        loadIfNeeded()
        guard let token = current?.csrfToken, registry.isDue(csrfToken: token) else { return }
        registry.used(current!, userAgent: userAgent())
    }

    /// True when this request ended the session (`end()`).
    public var endedHere: Bool { change == .ended }

    /// Starts a new session (a login), replacing every session cookie the browser sent.
    public mutating func start(_ session: Session) {
        if sent == nil { sent = sessions.sent(in: cookies) }  // no need to open what is replaced
        current = session
        change = .started
    }

    /// Ends the session: every session cookie is cleared.
    public mutating func end() {
        if sent == nil { sent = sessions.sent(in: cookies) }
        current = nil
        change = .ended
    }

    /// Shows `message` once, on the next page.
    public mutating func setFlash(_ message: String) { newFlash = message }

    /// The message a previous answer left for this page, if any; it is shown once.
    public mutating func takeFlash() -> String? {
        flashTaken = true
        return sessions.openFlash(from: cookies)
    }

    /// True when `token` (a form's `csrf` field) is the session's CSRF token.
    public mutating func isValidCSRFToken(_ token: String?) -> Bool {
        guard let token, let expected = session?.csrfToken else { return false }
        return expected.withBytes { ConstantTime.equal(Array(token.utf8), Array($0)) }
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
                if case .none = current {
                    // A tampered, expired or foreign cookie is forgotten, not trusted and not fatal.
                    if !sent.sentNames.isEmpty { out += sessions.clear(sent) }
                } else if sessions.needsTouch(issuedAt: sent.issuedAt) {
                    out += try sessions.store(current!, replacing: sent)  // extends the rolling lifetime
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
}
