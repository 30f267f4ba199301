import Web

/// One sealed value kept in a cookie `NAME`, or split into `NAME.0`, `NAME.1`, … when it is
/// larger than one cookie may safely be. Knows its name, path and key; not what it holds.
struct ChunkedSealedCookie: Sendable {
    /// The most text one cookie carries (browsers keep at least 4096 bytes per cookie).
    static let chunkSize = 3800
    /// At most this many chunks: past it the value is refused rather than broken.
    static let maxChunks = 4

    let name: String
    let path: String
    let secure: Bool
    let sealer: CookieSealer
    /// `NAME.0`, `NAME.1`, …, made once rather than per request.
    private let chunkNames: [String]
    /// `[NAME]`, made once: what nearly every request sent (a list made for it cost an allocation
    /// a page view).
    private let wholeName: [String]

    init(name: String, path: String, secure: Bool, sealer: CookieSealer) {
        self.name = name
        self.path = path
        self.secure = secure
        self.sealer = sealer
        chunkNames = (0..<ChunkedSealedCookie.maxChunks).map { name + "." + String($0) }
        wholeName = [name]
    }

    /// Every name this cookie may use.
    var allNames: [String] { [name] + chunkNames }

    /// The names of this cookie's parts that the browser sent, each once. Only the names this
    /// cookie uses count: another cookie named like a chunk (`NAME.x`, planted by a page of the
    /// same site) is not ours to clear, and clearing every one made an answer's head as long
    /// as the planter wished (500 names: nginx refused it, and that browser could not log in).
    func sentNames(in cookies: Cookies) -> [String] {
        // Nearly every request: no chunk sent, so the whole cookie's name or none.
        if !cookies.pairs.contains(where: { chunkNames.contains($0.name) }) {
            return cookies.value(of: name) == nil ? [] : wholeName
        }
        var names: [String] = []
        for pair in cookies.pairs
        where (pair.name == name || chunkNames.contains(pair.name)) && !names.contains(pair.name) {
            names.append(pair.name)
        }
        return names
    }

    /// Opens what the request carries; nil when it is missing, tampered, truncated, expired,
    /// duplicated or sealed for another cookie.
    func open(from cookies: Cookies, sentNames: [String]) -> CookieSealer.Opened? {
        guard let text = sealedText(in: cookies, sentNames: sentNames) else { return nil }
        return sealer.open(text, name: name)
    }

    /// The sealed text the request carries, unopened: the whole cookie's, or its chunks joined;
    /// nil when it is missing or duplicated.
    func sealedText(in cookies: Cookies, sentNames: [String]) -> Substring? {
        let whole = cookies.count(of: name)
        if whole == 1 {
            return cookies.value(of: name)  // read where it lies in the header
        } else if whole == 0, !sentNames.isEmpty {
            return joinedChunks(cookies).map { $0[...] }
        }
        return nil
    }

    /// The `Set-Cookie` values that store `payload` for `lifetime` seconds, replacing
    /// (clearing) whichever of `sentNames` it no longer uses.
    func seal(_ payload: [UInt8], lifetime: Int64, replacing sentNames: [String]) throws -> [SetCookie] {
        let text = try sealer.seal(payload, name: name, lifetime: lifetime)
        var cookies: [SetCookie] = []
        if text.utf8.count <= ChunkedSealedCookie.chunkSize {
            cookies.append(make(name, text, maxAge: Int(lifetime)))
        } else {
            let utf8 = Array(text.utf8)  // base64url: every byte is one character
            let size = ChunkedSealedCookie.chunkSize
            let chunks = stride(from: 0, to: utf8.count, by: size).map { start in
                String(decoding: utf8[start..<min(start + size, utf8.count)], as: UTF8.self)
            }
            guard chunks.count <= ChunkedSealedCookie.maxChunks else { throw SessionTooLarge() }
            for (index, chunk) in chunks.enumerated() {
                cookies.append(make(chunkNames[index], chunk, maxAge: Int(lifetime)))
            }
        }
        let written = Set(cookies.map(\.name))
        for stale in sentNames where !written.contains(stale) {
            cookies.append(make(stale, "", maxAge: 0))
        }
        return cookies
    }

    /// The `Set-Cookie` values that clear `names` and the whole-value name (by default every
    /// name this cookie may use).
    func clear(_ names: [String]? = nil) -> [SetCookie] {
        Set((names ?? allNames) + [name]).sorted().map { make($0, "", maxAge: 0) }
    }

    private func make(_ name: String, _ value: String, maxAge: Int) -> SetCookie {
        var cookie = SetCookie(name: name, value: value, maxAge: maxAge, secure: secure)
        cookie.path = path
        return cookie
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
