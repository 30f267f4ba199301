/// A `Set-Cookie` header value with safe defaults (`HttpOnly`, `SameSite=Lax`, `Path=/`).
public struct SetCookie: Sendable, Equatable {
    /// The `SameSite` attribute.
    public enum SameSite: String, Sendable { case strict = "Strict", lax = "Lax", none = "None" }

    /// The cookie's name (a token).
    public var name: String
    /// Its value (cookie-octets).
    public var value: String
    /// `Max-Age` in seconds; 0 clears it; nil makes a browser-session cookie.
    public var maxAge: Int?
    /// `Path`.
    public var path: String = "/"
    /// `Secure`: sent over https only.
    public var secure: Bool
    /// `HttpOnly`: not readable by scripts.
    public var httpOnly: Bool = true
    /// `SameSite`; `Lax` by default.
    public var sameSite: SameSite = .lax

    /// A cookie; `name` must be a token and `value` cookie-octets (both are checked).
    public init(name: String, value: String, maxAge: Int? = nil, secure: Bool) {
        precondition(!name.isEmpty && SetCookie.all(name, in: SetCookie.tokenTable), "cookie name is not a token")
        precondition(SetCookie.all(value, in: SetCookie.octetTable), "cookie value has characters not allowed")
        self.name = name
        self.value = value
        self.maxAge = maxAge
        self.secure = secure
    }

    /// A cookie that tells the browser to forget `name`.
    public static func expired(_ name: String, secure: Bool) -> SetCookie {
        SetCookie(name: name, value: "", maxAge: 0, secure: secure)
    }

    /// The text after `Set-Cookie: `.
    public var headerValue: String {
        var text = "\(name)=\(value); Path=\(path)"
        if let maxAge { text += "; Max-Age=\(maxAge)" }
        if secure { text += "; Secure" }
        if httpOnly { text += "; HttpOnly" }
        text += "; SameSite=\(sameSite.rawValue)"
        return text
    }

    /// RFC 6265 token characters (RFC 7230 `tchar`).
    public static func isTokenByte(_ b: UInt8) -> Bool { tokenTable[Int(b)] }

    /// RFC 6265 cookie-octet: printable ASCII but space, `"`, `,`, `;` and `\`.
    public static func isCookieOctet(_ b: UInt8) -> Bool { octetTable[Int(b)] }

    // Lookup tables: these checks run over every cookie value on every response that sets one.
    static let tokenTable: [Bool] = (0..<256).map { b in
        (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b)
            || "!#$%&'*+-.^_`|~".utf8.contains(UInt8(b))
    }
    static let octetTable: [Bool] = (0..<256).map { b in
        b == 0x21 || (0x23...0x2B).contains(b) || (0x2D...0x3A).contains(b) || (0x3C...0x5B).contains(b)
            || (0x5D...0x7E).contains(b)
    }

    static func all(_ text: String, in table: [Bool]) -> Bool { HeaderBytes.all(text, in: table) }
}
