/// A request handler of one route.
public typealias Handler = @Sendable (Request) throws -> Response

/// Exact-path routes by method; answers 404 for an unknown path and 405 with `Allow` for a known
/// path and another method. `HEAD` is served by the `GET` handler.
public struct Router: Sendable {
    private var routes: [String: [String: Handler]] = [:]

    public init() {}

    /// Adds a handler for a method and an exact path.
    public mutating func add(_ method: String, _ path: String, _ handler: @escaping Handler) {
        routes[path, default: [:]][method] = handler
    }

    /// What a request resolves to.
    public enum Match {
        case handler(Handler)
        case notFound
        case methodNotAllowed(allow: String)
    }

    /// Finds the handler for a request.
    public func match(_ request: Request) -> Match {
        guard let methods = routes[request.path] else { return .notFound }
        if let handler = methods[request.method] { return .handler(handler) }
        if request.method == "HEAD", let handler = methods["GET"] { return .handler(handler) }
        var allowed = Set(methods.keys)
        if allowed.contains("GET") { allowed.insert("HEAD") }
        return .methodNotAllowed(allow: allowed.sorted().joined(separator: ", "))
    }
}
