/// A request handler of one route, for responders that need nothing but the request.
public typealias Handler = @Sendable (Request) throws -> Response

/// Exact-path routes by method; answers 404 for an unknown path and 405 with `Allow` for a known
/// path and another method. `HEAD` is served by the `GET` handler. Generic over what a route
/// holds, so each responder chooses its handlers' shape (the product passes a session context).
/// Inlinable, so a responder in another module gets a copy specialised for its route type
/// (unspecialised generic code looks up type metadata on every request).
public struct Router<Route: Sendable>: Sendable {
    /// Each path's routes by method (one to three, compared in a row), the paths themselves in a
    /// `NamedValues`: a responder has a score of them, and hashing the request's path cost more
    /// than going down the row.
    @usableFromInline var paths = NamedValues<[(method: String, route: Route)]>()

    /// An empty router.
    public init() {}

    /// Adds a route for a method and an exact path (replacing one of the same method and path).
    @inlinable
    public mutating func add(_ method: String, _ path: String, _ route: Route) {
        var methods = paths[path] ?? []
        methods.removeAll { $0.method == method }
        methods.append((method, route))
        paths[path] = methods
    }

    /// Every route, path by path in the order added.
    public var routes: [(method: String, path: String, route: Route)] {
        paths.all.flatMap { path in path.value.map { ($0.method, path.name, $0.route) } }
    }

    /// What a request resolves to.
    public enum Match {
        /// The route for this method and path.
        case handler(Route)
        /// No route has this path.
        case notFound
        /// The path exists for other methods, listed for `Allow`.
        case methodNotAllowed(allow: String)
    }

    /// Finds the route for a request.
    @inlinable
    public func match(_ request: Request) -> Match {
        guard let methods = paths[request.path] else { return .notFound }
        if let found = methods.first(where: { $0.method == request.method }) { return .handler(found.route) }
        if request.method == "HEAD", let found = methods.first(where: { $0.method == "GET" }) {
            return .handler(found.route)
        }
        var allowed = Set(methods.map(\.method))
        if allowed.contains("GET") { allowed.insert("HEAD") }
        return .methodNotAllowed(allow: allowed.sorted().joined(separator: ", "))
    }
}
