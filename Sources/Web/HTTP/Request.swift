/// One HTTP request as the web layer sees it: no sockets, no C.
public struct Request: Sendable {
    /// The method in upper case, e.g. `GET`.
    public var method: String
    /// The path, percent-encoded as sent, without the query.
    public var path: String
    /// The raw query string, without the `?`.
    public var query: String
    /// Header fields, names in lower case.
    public var headers: HeaderFields
    /// The request body (already bounded by the server).
    public var body: [UInt8]
    /// An identifier shared with the front server's log, when it sends one.
    public var requestID: String
    /// The client's address as the front server saw it (`REMOTE_ADDR`); empty when unknown.
    public var remoteAddress: String = ""
    /// A request with these parts.
    public init(
        method: String, path: String, query: String = "", headers: HeaderFields = HeaderFields(),
        body: [UInt8] = [], requestID: String = ""
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.requestID = requestID
    }

    /// A header's value by its lower-case name.
    public func header(_ name: String) -> String? { headers[name] }

    /// The cookies the browser sent, parsed from the `Cookie` header.
    public var cookies: Cookies { Cookies(header: headers["cookie"] ?? "") }

    /// The decoded query parameters; throws `WebError.badRequest` on bad encoding.
    public func queryParameters() throws -> FormData { try FormData(urlEncoded: Array(query.utf8)) }

    /// The decoded `application/x-www-form-urlencoded` body.
    public func formBody() throws -> FormData {
        let type = headers["content-type"]?.lowercased() ?? ""
        guard type.hasPrefix("application/x-www-form-urlencoded") else {
            throw WebError.unsupportedMediaType
        }
        return try FormData(urlEncoded: body)
    }
}
