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
    /// False while the request is answered on a thread that must not wait on another service
    /// (see `Responder.respondWithoutWaiting`): a handler that would wait calls `requireWaiting()`
    /// first, and the request is answered again where waiting is cheap.
    public var mayWait = true

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

    /// This request with `mayWait` set (a copy).
    public func settingMayWait(_ mayWait: Bool) -> Request {
        var request = self
        request.mayWait = mayWait
        return request
    }

    /// Throws `WaitRequired` when the request may not wait here; call it before doing anything
    /// that cannot be done twice, since the request is then answered again from the start.
    public func requireWaiting() throws(WaitRequired) {
        if !mayWait { throw WaitRequired() }
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
