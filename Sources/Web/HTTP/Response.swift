/// One HTTP response: status, header fields in order, and body bytes.
public struct Response: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields, in the order they are sent.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: [UInt8]
    /// Fields sent after `headers`, made once for many answers (see `SecurityHeaders`).
    public var preparedHeaders: PreparedHeaders?

    /// A response with this status, headers and body.
    public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// An HTML page.
    public static func html(_ body: [UInt8], status: Int = 200) -> Response {
        Response(status: status, first: ("Content-Type", "text/html; charset=utf-8"), body: body)
    }

    /// Plain text, for machines (health checks).
    public static func text(_ text: String, status: Int = 200) -> Response {
        Response(status: status, first: ("Content-Type", "text/plain; charset=utf-8"), body: Array(text.utf8))
    }

    /// JSON bytes.
    public static func json(_ body: [UInt8], status: Int = 200) -> Response {
        Response(status: status, first: ("Content-Type", "application/json"), body: body)
    }

    /// A `303 See Other` (after a POST) or `302 Found` redirect.
    public static func redirect(to location: String, status: Int = 302) -> Response {
        Response(status: status, first: ("Location", location), body: [])
    }

    /// A response with one field and room for a few more (`Cache-Control`, cookies) without
    /// growing its list: an array made from a one-field literal is copied at the first `add`.
    private init(status: Int, first field: (name: String, value: String), body: [UInt8]) {
        self.status = status
        headers = []
        headers.reserveCapacity(4)
        headers.append(field)
        self.body = body
    }

    /// The first value of a header, matched without regard to case (the answer's own fields,
    /// then the prepared ones).
    public func header(_ name: String) -> String? {
        headers.first { Response.sameName($0.name, name) }?.value ?? preparedHeaders?.value(of: name)
    }

    /// Every field in the order it is sent: the answer's own, then the prepared ones.
    public var allHeaders: [(name: String, value: String)] { headers + (preparedHeaders?.fields ?? []) }

    /// ASCII case-insensitive name comparison without allocating (this runs on every request).
    static func sameName(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return a.withUTF8Bytes { a in
            b.withUTF8Bytes { b in
                for index in 0..<a.count where a[index] | 0x20 != b[index] | 0x20 { return false }
                return true
            }
        }
    }

    /// Adds a header field (several of the same name are kept, as `Set-Cookie` needs).
    public mutating func add(_ name: String, _ value: String) {
        headers.append((name, value))
    }

    /// Adds a `Set-Cookie` field.
    public mutating func setCookie(_ cookie: SetCookie) {
        headers.append(("Set-Cookie", cookie.headerValue))
    }

    /// The reason phrase for a status code.
    public static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
