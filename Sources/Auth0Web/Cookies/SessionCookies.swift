import Web

/// Reads and writes the session as sealed cookies: the session itself under `Path=/`, read by
/// every page view, and its access token in a cookie of its own scoped to `accessTokenPath`, so
/// the browser sends the token only to the route that calls the Management API. Page views
/// stay small and never carry a bearer token. Each is split into numbered chunks when larger
/// than one cookie may safely be. A class: every request's context refers to the one made at
/// start-up instead of copying its names, paths and keys.
public final class SessionCookies: Sendable {
    /// The most text one cookie carries (browsers keep at least 4096 bytes per cookie).
    package static let chunkSize = ChunkedSealedCookie.chunkSize

    /// `__Host-` prefixed on https.
    private let session: ChunkedSealedCookie
    /// `__Secure-` prefixed on https rather than `__Host-`, which demands `Path=/`.
    private let access: ChunkedSealedCookie
    /// A one-time message for the next page, apart from the session so that showing it does not
    /// seal the session again.
    private let flash: ChunkedSealedCookie
    /// Where the browser sends the access-token cookie.
    private let accessTokenPath: String
    /// `accessTokenPath` and a slash, made once: every request asks whether its path is below it.
    private let belowAccessTokenPath: String
    private let clock: Clock
    /// The sessions each thread opened lately, so a page view sending the same cookie again opens it once.
    private let opened = OpenedSessions()
    /// Seconds of inactivity after which the session ends.
    public let rollingLifetime: Int64
    /// Seconds after login after which the session ends whatever happens.
    public let absoluteLifetime: Int64
    /// A session seen again after this many seconds is sealed anew to extend its rolling life.
    public let touchInterval: Int64

    /// - Parameter accessTokenPath: the path (and below) where the browser sends the access token.
    public init(
        secure: Bool, secrets: [String], clock: Clock, accessTokenPath: String, rollingLifetime: Int64 = 86_400,
        absoluteLifetime: Int64 = 7 * 86_400
    ) throws {
        precondition(accessTokenPath.hasPrefix("/"), "the access token's path is absolute")
        session = ChunkedSealedCookie(
            name: secure ? "__Host-mds" : "mds", path: "/", secure: secure,
            sealer: try CookieSealer(secrets: secrets, purpose: "session", clock: clock))
        access = ChunkedSealedCookie(
            name: secure ? "__Secure-mda" : "mda", path: accessTokenPath, secure: secure,
            sealer: try CookieSealer(secrets: secrets, purpose: "access-token", clock: clock))
        flash = ChunkedSealedCookie(
            name: secure ? "__Host-mdf" : "mdf", path: "/", secure: secure,
            sealer: try CookieSealer(secrets: secrets, purpose: "flash", clock: clock))
        self.accessTokenPath = accessTokenPath
        belowAccessTokenPath = accessTokenPath + "/"
        self.clock = clock
        self.rollingLifetime = rollingLifetime
        self.absoluteLifetime = absoluteLifetime
        touchInterval = min(3600, rollingLifetime / 4)
    }

    /// What the request's cookies hold.
    public struct Loaded: Sendable {
        /// The session, when a valid one came (with its access token when asked for and valid).
        public private(set) var session: Session?
        /// When it was sealed (to decide whether to extend it).
        public let issuedAt: Int64
        /// Session cookie names the browser sent (all are replaced or cleared on write).
        public let sentNames: [String]
        /// Access-token cookie names the browser sent; nil when they were not looked for (the
        /// request was outside the token's path, where the browser does not show them).
        public let sentAccessTokenNames: [String]?

        /// Moves the session out (the request's context keeps the one copy); what was sent stays.
        mutating func takeSession() -> Session? { session.take() }
    }

    /// True when the browser sends the access-token cookie to `path`.
    public func carriesAccessToken(path: String) -> Bool {
        path == accessTokenPath || path.hasPrefix(belowAccessTokenPath)
    }

    /// What the request's cookies hold, without opening them: enough to replace or clear them.
    public func sent(in cookies: Cookies) -> Loaded {
        Loaded(session: nil, issuedAt: 0, sentNames: session.sentNames(in: cookies), sentAccessTokenNames: nil)
    }

    /// Opens the session from the request; a missing, tampered, truncated, expired, duplicated
    /// or foreign cookie means no session. With `includingAccessToken`, the access token is
    /// opened too; one that is missing, invalid or another session's leaves `accessToken` nil.
    public func load(from cookies: Cookies, includingAccessToken: Bool = false) -> Loaded {
        let sent = session.sentNames(in: cookies)
        let sentAccess = includingAccessToken ? access.sentNames(in: cookies) : nil
        let now = clock.now()
        guard let text = session.sealedText(in: cookies, sentNames: sent), let opened = openSession(text, now: now),
            case let (decoded, issuedAt) = opened, Double(decoded.createdAt + absoluteLifetime) > now
        else {
            return Loaded(session: nil, issuedAt: 0, sentNames: sent, sentAccessTokenNames: sentAccess)
        }
        if let sentAccess, let token = access.open(from: cookies, sentNames: sentAccess) {
            var withToken = decoded
            withToken.accessToken = AccessToken(encoded: token.payload, for: decoded)
            return Loaded(session: withToken, issuedAt: issuedAt, sentNames: sent, sentAccessTokenNames: sentAccess)
        }
        // The opened session goes into the answer as it is (a page view).
        return Loaded(session: decoded, issuedAt: issuedAt, sentNames: sent, sentAccessTokenNames: sentAccess)
    }

    /// The session sealed in `text` and when: as this thread opened it before, when it did
    /// (`OpenedSessions`). A tuple, so the session moves on from here (a struct around it was copied).
    private func openSession(_ text: Substring, now: Double) -> (session: Session, issuedAt: Int64)? {
        if let known = opened.opened(text, now: now) { return known }
        guard let sealed = session.sealer.open(text, name: session.name),
            let decoded = Session(encoded: sealed.payload)
        else { return nil }
        opened.keep(
            text, OpenedSessions.Opened(session: decoded, issuedAt: sealed.issuedAt, expiresAt: sealed.expiresAt))
        return (decoded, sealed.issuedAt)
    }

    /// True when a session sealed at `issuedAt` should be sealed again to extend its rolling lifetime.
    public func needsTouch(issuedAt: Int64) -> Bool { Int64(clock.now()) - issuedAt >= touchInterval }

    /// The `Set-Cookie` values that store `session`, replacing whatever `loaded` says was sent
    /// (nil: nothing was). The access-token cookie is written only when the session holds a token
    /// (a page view that extends the session leaves the browser's token as it is); written from
    /// outside its path (at login), every other part a browser may hold from before is cleared.
    public func store(_ stored: Session, replacing loaded: Loaded? = nil) throws -> [SetCookie] {
        let now = Int64(clock.now())
        let end = stored.createdAt + absoluteLifetime
        let lifetime = max(1, min(rollingLifetime, end - now))
        var cookies = try session.seal(stored.encoded(), lifetime: lifetime, replacing: loaded?.sentNames ?? [])
        let sentAccess = loaded.map { $0.sentAccessTokenNames ?? access.allNames } ?? []
        if let token = stored.accessToken {
            let tokenLifetime = min(token.expiresAt, end) - now
            if tokenLifetime > 0 {
                cookies += try access.seal(token.encoded(for: stored), lifetime: tokenLifetime, replacing: sentAccess)
            } else if !sentAccess.isEmpty {
                cookies += access.clear(sentAccess)
            }
        }
        return cookies
    }

    /// The `Set-Cookie` values that clear every session cookie the browser sent and every
    /// access-token cookie it may hold (requests outside the token's path do not show them).
    public func clear(_ loaded: Loaded) -> [SetCookie] {
        session.clear(loaded.sentNames) + access.clear()
    }

    /// How long a flash waits to be shown: the redirect that follows it comes at once.
    static let flashLifetime: Int64 = 60

    /// The `Set-Cookie` that carries `message` to the next page.
    public func storeFlash(_ message: String) throws -> [SetCookie] {
        try flash.seal(Array(message.utf8), lifetime: SessionCookies.flashLifetime, replacing: [])
    }

    /// The flash message the request carries, if one came intact. A flash is one short cookie,
    /// never split: looking for it costs a page view one pass over the names, no allocation.
    public func openFlash(from cookies: Cookies) -> String? {
        guard carriesFlash(cookies), let opened = flash.open(from: cookies, sentNames: [flash.name]) else {
            return nil
        }
        return String(decoding: opened.payload, as: UTF8.self)
    }

    /// True when the request carries a flash cookie (shown or not, it is then cleared).
    public func carriesFlash(_ cookies: Cookies) -> Bool { cookies.count(of: flash.name) > 0 }

    /// The `Set-Cookie` that clears the flash cookie.
    public func clearFlash() -> [SetCookie] { flash.clear([]) }
}
