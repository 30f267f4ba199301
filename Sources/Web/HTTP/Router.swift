/// A request handler of one route, for responders that need nothing but the request.
public typealias Handler = @Sendable (Request) throws -> Response

/// Exact-path routes by method; answers 404 for an unknown path and 405 with `Allow` for a known
/// path and another method. `HEAD` is served by the `GET` handler. Generic over what a route
/// holds, so each responder chooses its handlers' shape (the product passes a session context);
/// the paths and methods themselves are a `RouteTable` of indexes, which needs no specialising.
public struct Router<Route: Sendable>: Sendable {
    private var table = RouteTable()
    private var handlers: [Route] = []

    /// An empty router.
    public init() {}

    /// Adds a route for a method and an exact path (replacing one of the same method and path).
    public mutating func add(_ method: String, _ path: String, _ route: Route) {
        handlers.append(route)
        table.add(method, path, handlers.count - 1)
    }

    /// Every route, path by path in the order added.
    public var routes: [(method: String, path: String, route: Route)] {
        table.all.map { ($0.method, $0.path, handlers[$0.index]) }
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
    public func match(_ request: Request) -> Match {
        switch resolve(request) {
        case .found(let index): .handler(handlers[index])
        case .notFound: .notFound
        case .methodNotAllowed(let allow): .methodNotAllowed(allow: allow)
        }
    }

    /// Where a request's route is among the routes added (`route(at:)`), as a type of no generic
    /// parameter: a responder in another module that switches on `Match` has the runtime look its
    /// metadata up on every request (about a thousand instructions of a `/healthz`).
    public func resolve(_ request: Request) -> RouteResolution {
        switch table.match(method: request.method, path: request.path) {
        case .found(let index): .found(index)
        case .notFound: .notFound
        case .methodNotAllowed(let allow): .methodNotAllowed(allow: allow)
        }
    }

    /// The route at a place `resolve(_:)` gave.
    public func route(at index: Int) -> Route { handlers[index] }
}

/// Where a request's route is in a `Router`: its place, no route for the path, or other methods
/// only (listed for `Allow`).
public enum RouteResolution: Sendable, Equatable {
    /// The place of the route for this method and path.
    case found(Int)
    /// No route has this path.
    case notFound
    /// The path exists for other methods, listed for `Allow`.
    case methodNotAllowed(allow: String)
}

/// Each path's routes by method (one to three, compared in a row), the paths themselves in a
/// `NamedValues`: a responder has a score of them, and hashing the request's path cost more
/// than going down the row.
struct RouteTable: Sendable {
    private var paths = NamedValues<[(method: String, index: Int)]>()

    /// What a method and path resolve to.
    enum Found {
        case found(Int)
        case notFound
        case methodNotAllowed(String)
    }

    mutating func add(_ method: String, _ path: String, _ index: Int) {
        var methods = paths[path] ?? []
        methods.removeAll { $0.method == method }
        methods.append((method, index))
        paths[path] = methods
    }

    var all: [(method: String, path: String, index: Int)] {
        paths.all.flatMap { path in path.value.map { ($0.method, path.name, $0.index) } }
    }

    func match(method: String, path: String) -> Found {
        guard let methods = paths[path] else { return .notFound }
        if let found = methods.first(where: { $0.method == method }) { return .found(found.index) }
        if method == "HEAD", let found = methods.first(where: { $0.method == "GET" }) { return .found(found.index) }
        var allowed = Set(methods.map(\.method))
        if allowed.contains("GET") { allowed.insert("HEAD") }
        return .methodNotAllowed(allowed.sorted().joined(separator: ", "))
    }
}
