import Foundation
import Web

/// The Management API's calls that set a tenant up, for a machine-to-machine token: each route
/// with the scope Auth0 requires of it, the tenant-wide rate limit with its three headers, and
/// Auth0's error bodies (`Management/` holds one file per kind of object).
extension DevTenant {
    /// One call let through: the path's parameters, the query and the body.
    struct AdminCall {
        let request: Request
        let parameters: [String]
        let query: [String: String]
        let scopes: Set<String>

        /// The body, when it is JSON of `shape`; else Auth0's 400 naming what is wrong.
        func body(_ shape: PayloadShape) throws(ManagementRefusal) -> JSONValue {
            guard let body = JSONValue.parse(request.body) else {
                throw ManagementRefusal(response: DevTenant.invalidPayload("'Invalid JSON'"))
            }
            if let mismatch = shape.mismatch(body) {
                throw ManagementRefusal(response: DevTenant.invalidPayload(mismatch))
            }
            return body
        }
    }

    typealias AdminHandler = @Sendable (DevTenant, AdminCall) throws -> Response

    /// A route: its method, its path under `/api/v2/` (`*` one segment, a parameter), the scope it needs.
    struct AdminRoute: Sendable {
        let method: String
        let path: [String]
        let scope: String
        let handler: AdminHandler

        func parameters(_ segments: [String]) -> [String]? {
            guard segments.count == path.count else { return nil }
            var found: [String] = []
            for (pattern, segment) in zip(path, segments) {
                if pattern == "*" { found.append(segment) } else if pattern != segment { return nil }
            }
            return found
        }
    }

    static let adminRoutes: [AdminRoute] =
        clientRoutes + resourceServerRoutes + clientGrantRoutes + actionRoutes
        + tenantRoutes

    /// Answers a Management API call other than a person's own user calls.
    func administer(_ request: Request) -> Response {
        let tail = request.path.dropFirst("/api/v2/".count)
        let segments = tail.split(separator: "/", omittingEmptySubsequences: false).map {
            (try? PercentEncoding.decode($0.utf8, plusIsSpace: false)) ?? String($0)
        }
        let matching = Self.adminRoutes.compactMap { route in route.parameters(segments).map { (route, $0) } }
        guard !matching.isEmpty else { return managementError(404, "Not Found", "Not Found") }
        guard let (route, parameters) = matching.first(where: { $0.0.method == request.method }) else {
            var response = managementError(405, "Method Not Allowed", "Method not allowed")
            response.add("Allow", matching.map(\.0.method).joined(separator: ", "))
            return response
        }
        let scopes: Set<String>
        do { scopes = try managementToken(request).scopes } catch { return error.response }
        return rateLimited(limit: managementBucket.limit, window: managementBucket.take) {
            guard scopes.contains(route.scope) else {
                return managementError(
                    403, "Forbidden", "Insufficient scope, expected any of: \(route.scope)", code: "insufficient_scope")
            }
            let query = ((try? request.queryParameters())?.firstValues) ?? [:]
            let call = AdminCall(request: request, parameters: parameters, query: query, scopes: scopes)
            do { return try route.handler(self, call) } catch let refusal as ManagementRefusal {
                return refusal.response
            } catch {
                log(.error, "management call failed", ["path": request.path, "error": "\(error)"])
                return Self.errorBody(500, "Internal Server Error", "Internal error")
            }
        }
    }

    /// A Management API answer under a rate limit: the faults tests inject first, as a struggling
    /// tenant's (latency, every call 429, a share of 500s), then the limit's 429, else `answer`;
    /// each with `x-ratelimit-limit`, `-remaining` and `-reset`.
    func rateLimited(
        limit: Int, window: () -> (allowed: Bool, remaining: Int, reset: Int64), _ answer: () -> Response
    ) -> Response {
        if config.faults.latencyMilliseconds > 0 { usleep(useconds_t(config.faults.latencyMilliseconds * 1000)) }
        let window = window()
        var response: Response
        if config.faults.force429 || !window.allowed {
            response = managementError(
                429, "Too Many Requests",
                "Too many requests. Check the X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset headers.",
                code: "too_many_requests")
        } else if config.faults.failPercent > 0, Int.random(in: 0..<100) < config.faults.failPercent {
            response = managementError(500, "Internal Server Error", "Internal error")
        } else {
            response = answer()
        }
        response.add("x-ratelimit-limit", String(limit))
        response.add("x-ratelimit-remaining", String(window.remaining))
        response.add("x-ratelimit-reset", String(window.reset))
        return response
    }

    /// Adds `document` to `list` and saves, refused as Auth0's 409 (`conflict`) when a document
    /// there `clashes` with it (its natural key taken), or as `check` refuses the objects then.
    func adding(
        _ document: [String: JSONValue], to list: WritableKeyPath<TenantDirectory.Objects, [[String: JSONValue]]>,
        unless clashes: @escaping ([String: JSONValue]) -> Bool, conflict: String,
        check: (TenantDirectory.Objects) throws(ManagementRefusal) -> Void = { _ in }
    ) throws(ManagementRefusal) -> Response {
        try changing { (objects) throws(ManagementRefusal) in
            try check(objects)
            if objects[keyPath: list].contains(where: clashes) { throw Self.conflict(conflict) }
            objects[keyPath: list].append(document)
        }
        return Self.document(.object(document.filter { !$0.key.hasPrefix("__") }), status: 201)
    }

    /// Changes the first document of `list` that `matches` (or refuses with `missing`), saves,
    /// and returns it as changed.
    func updating(
        _ list: WritableKeyPath<TenantDirectory.Objects, [[String: JSONValue]]>,
        where matches: @escaping ([String: JSONValue]) -> Bool, missing: ManagementRefusal,
        _ change: (inout [String: JSONValue]) throws(ManagementRefusal) -> Void
    ) throws(ManagementRefusal) -> [String: JSONValue] {
        try changing { (objects) throws(ManagementRefusal) -> [String: JSONValue] in
            guard let index = objects[keyPath: list].firstIndex(where: matches) else { throw missing }
            var document = objects[keyPath: list][index]
            try change(&document)
            objects[keyPath: list][index] = document
            return document
        }
    }

    /// Auth0's 400 for a body that does not fit: `Payload validation error: …`.
    static func invalidPayload(_ detail: String) -> Response {
        errorBody(400, "Bad Request", "Payload validation error: \(detail).", code: "invalid_body")
    }

    /// Auth0's 404 for an object that is not there.
    static func inexistent(_ what: String, code: String) -> ManagementRefusal {
        ManagementRefusal(response: errorBody(404, "Not Found", "The \(what) does not exist.", code: code))
    }

    /// Auth0's 409 for an object whose natural key another has.
    static func conflict(_ message: String) -> ManagementRefusal {
        ManagementRefusal(response: errorBody(409, "Conflict", message, code: "conflict"))
    }

    /// Auth0's error body: `statusCode`, `error`, `message` and, when there is one, `errorCode`.
    static func errorBody(_ status: Int, _ error: String, _ message: String, code: String? = nil) -> Response {
        var body: [String: JSONValue] = [
            "statusCode": .number(Double(status)), "error": .string(error), "message": .string(message),
        ]
        if let code { body["errorCode"] = .string(code) }
        return .json(JSONValue.object(body).serialized(), status: status)
    }

    /// A JSON answer of `status` (200 unless said).
    static func document(_ value: JSONValue, status: Int = 200) -> Response {
        .json(value.serialized(), status: status)
    }

    /// Changes the directory and saves; a failed save is Auth0's 500.
    func changing<T>(_ body: (inout TenantDirectory.Objects) throws(ManagementRefusal) -> T) throws(ManagementRefusal)
        -> T
    {
        do { return try store.changeDirectory(body) } catch let refusal as ManagementRefusal { throw refusal } catch {
            log(.error, "saving the tenant state failed", ["error": "\(error)"])
            throw ManagementRefusal(response: Self.errorBody(500, "Internal Server Error", "Internal error"))
        }
    }

    /// Keeps only `fields` of `object` (or all but them, when `include_fields=false`), as the query asks.
    static func selectingFields(_ object: [String: JSONValue], _ query: [String: String]) -> [String: JSONValue] {
        guard let fields = query["fields"] else { return object }
        let listed = Set(fields.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        let include = query["include_fields"] != "false"
        return object.filter { include ? listed.contains($0.key) : !listed.contains($0.key) }
    }

    /// The ISO 8601 time now, as documents say `created_at` and `updated_at`.
    var timestamp: String { isoTime(now()) }
}
