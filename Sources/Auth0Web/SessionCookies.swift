import Web

/// Reads and writes the session as one sealed cookie, split into numbered chunks when it is
/// larger than one cookie may safely be.
public struct SessionCookies: Sendable {
    /// The most text one cookie carries (browsers keep at least 4096 bytes per cookie).
    public static let chunkSize = 3800
    /// At most this many chunks: past it the session is refused rather than broken.
    public static let maxChunks = 4

    /// The cookie's name: `__Host-` prefixed on https.
    public let name: String
    private let secure: Bool
    private let sealer: CookieSealer
    private let clock: Clock
    /// Seconds of inactivity after which the session ends.
    public let rollingLifetime: Int64
    /// Seconds after login after which the session ends whatever happens.
    public let absoluteLifetime: Int64
    /// A session seen again after this many seconds is sealed anew to extend its rolling life.
    public let touchInterval: Int64

    public init(
        secure: Bool, secrets: [String], clock: Clock, rollingLifetime: Int64 = 86_400,
        absoluteLifetime: Int64 = 7 * 86_400
    ) throws {
        self.secure = secure
        name = secure ? "__Host-mds" : "mds"
        sealer = try CookieSealer(secrets: secrets, purpose: "session", clock: clock)
        self.clock = clock
        self.rollingLifetime = rollingLifetime
        self.absoluteLifetime = absoluteLifetime
        touchInterval = min(3600, rollingLifetime / 4)
        let prefix = name + "."
        chunkPrefix = prefix
        chunkNames = (0..<SessionCookies.maxChunks).map { prefix + String($0) }
    }

    /// `NAME.`, and `NAME.0`, `NAME.1`, …: the parts of a session too large for one cookie.
    private let chunkPrefix: String
    private let chunkNames: [String]

    /// What the request's cookies hold.
    public struct Loaded: Sendable {
        /// The session, when a valid one came.
        public let session: Session?
        /// When it was sealed (to decide whether to extend it).
        public let issuedAt: Int64
        /// Session cookie names the browser sent (all are replaced or cleared on write).
        public let sentNames: [String]
    }

    /// Opens the session from the request; a missing, tampered, truncated, expired, duplicated
    /// or foreign cookie means no session.
    public func load(from cookies: Cookies) -> Loaded {
        let sent = cookies.pairs.map(\.name).filter { $0 == name || $0.hasPrefix(chunkPrefix) }
        var text: Substring?
        if cookies.count(of: name) == 1 {
            text = cookies.value(of: name)  // read where it lies in the header
        } else if cookies.count(of: name) == 0, !sent.isEmpty {
            text = joinedChunks(cookies).map { $0[...] }
        }
        guard let text, let opened = sealer.open(text, name: name), let session = Session(encoded: opened.payload),
            Double(session.createdAt + absoluteLifetime) > clock.now()
        else {
            return Loaded(session: nil, issuedAt: 0, sentNames: sent)
        }
        return Loaded(session: session, issuedAt: opened.issuedAt, sentNames: sent)
    }

    /// True when a loaded session should be sealed again to extend its rolling lifetime.
    public func needsTouch(_ loaded: Loaded) -> Bool {
        guard case .some = loaded.session else { return false }  // a match, not a copy of the session
        return Int64(clock.now()) - loaded.issuedAt >= touchInterval
    }

    /// The `Set-Cookie` values that store `session`, replacing whatever was sent.
    public func store(_ session: Session, replacing sentNames: [String]) throws -> [SetCookie] {
        let now = Int64(clock.now())
        let lifetime = max(1, min(rollingLifetime, session.createdAt + absoluteLifetime - now))
        let text = try sealer.seal(session.encoded(), name: name, lifetime: lifetime)
        var cookies: [SetCookie] = []
        if text.utf8.count <= SessionCookies.chunkSize {
            cookies.append(make(name, text, maxAge: Int(lifetime)))
        } else {
            let utf8 = Array(text.utf8)  // base64url: every byte is one character
            let chunks = stride(from: 0, to: utf8.count, by: SessionCookies.chunkSize).map { start in
                String(decoding: utf8[start..<min(start + SessionCookies.chunkSize, utf8.count)], as: UTF8.self)
            }
            guard chunks.count <= SessionCookies.maxChunks else { throw SessionTooLarge() }
            for (index, chunk) in chunks.enumerated() {
                cookies.append(make(chunkNames[index], chunk, maxAge: Int(lifetime)))
            }
        }
        let written = Set(cookies.map(\.name))
        for stale in sentNames where !written.contains(stale) {
            cookies.append(SetCookie.expired(stale, secure: secure))
        }
        return cookies
    }

    /// The `Set-Cookie` values that clear every session cookie the browser sent.
    public func clear(_ sentNames: [String]) -> [SetCookie] {
        Set(sentNames + [name]).sorted().map { SetCookie.expired($0, secure: secure) }
    }

    private func make(_ name: String, _ value: String, maxAge: Int) -> SetCookie {
        SetCookie(name: name, value: value, maxAge: maxAge, secure: secure)
    }

    private func joinedChunks(_ cookies: Cookies) -> String? {
        var text = ""
        for chunkName in chunkNames {
            guard cookies.count(of: chunkName) <= 1 else { return nil }
            guard let chunk = cookies[chunkName] else { break }
            text += chunk
        }
        return text.isEmpty ? nil : text
    }
}

/// The session would need more cookies than browsers reliably keep.
public struct SessionTooLarge: Error {}
