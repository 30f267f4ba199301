import Foundation
import Web

/// The Management API's `GET` and `PATCH /api/v2/users/{id}` for a user's own token, with
/// Auth0's scopes, error bodies, rate-limit headers and (for tests) injected faults.
extension DevTenant {
    static let profileSizeLimit = 10 * 1024

    func management(_ request: Request) -> Response {
        let call: ManagementCall
        do {
            call = try managementCall(
                request, rawID: request.path.dropFirst("/api/v2/users/".count), methods: ["GET", "PATCH"])
        } catch {
            return error.response
        }
        let (id, claims, scopes) = (call.id, call.claims, call.scopes)
        let sub = claims["sub"]?.string ?? ""

        let limit = config.userRatePerMinute
        return rateLimited(limit: limit, window: { rateWindows.count(key: sub, limit: limit) }) {
            request.method == "GET"
                ? readUser(id, sub: sub, scopes: scopes, request) : patchUser(id, sub: sub, scopes: scopes, request)
        }
    }

    private func readUser(_ id: String, sub: String, scopes: Set<String>, _ request: Request) -> Response {
        guard scopes.contains("read:current_user") || scopes.contains("read:users") else {
            return managementError(
                403, "Forbidden", "Insufficient scope, expected any of: read:users,read:current_user",
                code: "insufficient_scope")
        }
        guard id == sub || scopes.contains("read:users") else {
            return managementError(403, "Forbidden", "You cannot read other users", code: "insufficient_scope")
        }
        guard let user = store.user(id: id) else {
            return managementError(404, "Not Found", "The user does not exist.", code: "inexistent_user")
        }
        guard let query = try? request.queryParameters() else {
            return managementError(
                400, "Bad Request", "Query validation error: invalid encoding", code: "invalid_query_string")
        }
        var json = user.managementJSON
        if let fields = query["fields"] {
            let listed = Set(fields.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            let include = query["include_fields"] != "false"
            json = json.filter { include ? listed.contains($0.key) : !listed.contains($0.key) }
        }
        return .json(JSONValue.object(json).serialized())
    }

    private func patchUser(_ id: String, sub: String, scopes: Set<String>, _ request: Request) -> Response {
        // Which metadata this token may change: a person's own token only their `user_metadata`;
        // an administrator's (machine-to-machine) token with `update:users` anyone's both, with
        // `update:users_app_metadata` anyone's `app_metadata`.
        var writable: Set<String> = []
        if scopes.contains("update:users") { writable = ["user_metadata", "app_metadata"] }
        if scopes.contains("update:users_app_metadata") { writable.insert("app_metadata") }
        let ownOnly = writable.isEmpty && scopes.contains("update:current_user_metadata")
        if ownOnly { writable = ["user_metadata"] }
        guard !writable.isEmpty else {
            return managementError(
                403, "Forbidden",
                "Insufficient scope, expected any of: update:users,update:users_app_metadata,update:current_user_metadata",
                code: "insufficient_scope")
        }
        guard !ownOnly || id == sub else {
            return managementError(
                403, "Forbidden", "You cannot update other users' metadata", code: "insufficient_scope")
        }
        guard let body = JSONValue.parse(request.body)?.object else {
            return invalidBody("Invalid JSON")
        }
        if let other = body.keys.sorted().first(where: { !writable.contains($0) }) {
            return managementError(
                403, "Forbidden", "You may only update \(writable.sorted().joined(separator: " and ")) (not \(other))",
                code: "insufficient_scope")
        }
        var changes: [String: [String: JSONValue]] = [:]
        for (field, value) in body {
            guard let object = value.object else {
                return invalidBody(
                    "Expected type object but found type \(PayloadShape.typeName(value)) on property \(field)")
            }
            if let dotted = object.keys.first(where: { $0.contains(".") }) {
                return invalidBody("Invalid metadata key \(dotted): key names may not contain '.'")
            }
            changes[field] = object
        }
        return saveMetadata(changes, of: id)
    }

    /// Merges `changes` into the person's metadata and saves, within Auth0's 10 KB profile limit.
    private func saveMetadata(_ changes: [String: [String: JSONValue]], of id: String) -> Response {
        do {
            var tooLarge = false
            let updated = try store.updateUser(id: id) { user in
                var userMetadata = user.userMetadata
                var appMetadata = user.appMetadata
                if let change = changes["user_metadata"] { DevTenant.merge(change, into: &userMetadata) }
                if let change = changes["app_metadata"] { DevTenant.merge(change, into: &appMetadata) }
                let size =
                    JSONValue.object(userMetadata).serialized().count + JSONValue.object(appMetadata).serialized().count
                guard size <= DevTenant.profileSizeLimit else {
                    tooLarge = true
                    return
                }
                user.userMetadata = userMetadata
                user.appMetadata = appMetadata
                user.updatedAt = isoTime(now())
            }
            if tooLarge { return invalidBody("Metadata exceeds the 10 KB profile size limit") }
            guard let updated else {
                return managementError(404, "Not Found", "The user does not exist.", code: "inexistent_user")
            }
            return .json(JSONValue.object(updated.managementJSON).serialized())
        } catch {
            log(.error, "saving the tenant state failed", ["error": "\(error)"])
            return managementError(500, "Internal Server Error", "Internal error")
        }
    }

    /// Auth0's metadata merge: first level only, a key set to null is deleted, objects are
    /// replaced whole, and an empty object empties the metadata.
    static func merge(_ change: [String: JSONValue], into metadata: inout [String: JSONValue]) {
        if change.isEmpty { metadata = [:] }
        for (key, value) in change {
            if value == .null { metadata[key] = nil } else { metadata[key] = value }
        }
    }

    private func invalidBody(_ detail: String) -> Response {
        Self.invalidPayload("'\(detail)'")
    }

    func managementError(_ status: Int, _ error: String, _ message: String, code: String? = nil) -> Response {
        Self.errorBody(status, error, message, code: code)
    }
}

extension DevTenant {
    /// `DELETE /api/v2/users/{id}/sessions` with a machine-to-machine token holding
    /// `delete:sessions`: ends every tenant session of the person, answers `202 Accepted`, and
    /// sends a back-channel logout token naming the person only (`sub`, no `sid`). Refresh tokens
    /// stay valid, as with Auth0 (revoking them is another call).
    func deleteSessions(_ request: Request) -> Response {
        let rawID = request.path.dropFirst("/api/v2/users/".count).dropLast("/sessions".count)
        let call: ManagementCall
        do { call = try managementCall(request, rawID: rawID, methods: ["DELETE"]) } catch { return error.response }
        let (id, scopes) = (call.id, call.scopes)
        guard scopes.contains("delete:sessions") else {
            return managementError(
                403, "Forbidden", "Insufficient scope, expected any of: delete:sessions", code: "insufficient_scope")
        }
        guard store.user(id: id) != nil else {
            return managementError(404, "Not Found", "The user does not exist.", code: "inexistent_user")
        }
        store.endSessions(of: id)
        sendLogoutTokens(sid: nil, sub: id)
        return Response(status: 202)
    }

    /// A Management API call let through: the user it names, its token's claims and scopes.
    struct ManagementCall {
        let id: String
        let claims: JSONValue
        let scopes: Set<String>
    }

    /// A Management API call refused, with Auth0's answer.
    struct ManagementRefusal: Error {
        let response: Response
    }

    /// What every Management API call checks first, as Auth0 answers it: the user id in the path
    /// (404), the method (405), a valid bearer token (401) for the Management API's audience (401).
    func managementCall(_ request: Request, rawID: Substring, methods: [String]) throws(ManagementRefusal)
        -> ManagementCall
    {
        guard let id = try? PercentEncoding.decode(rawID.utf8, plusIsSpace: false), !id.isEmpty, !id.contains("/")
        else {
            throw ManagementRefusal(response: managementError(404, "Not Found", "Not Found"))
        }
        guard methods.contains(request.method) else {
            var response = managementError(405, "Method Not Allowed", "Method not allowed")
            response.add("Allow", methods.joined(separator: ", "))
            throw ManagementRefusal(response: response)
        }
        let (claims, scopes) = try managementToken(request)
        return ManagementCall(id: id, claims: claims, scopes: scopes)
    }

    /// The claims and scopes of a call's access token: a valid bearer token (401) for the
    /// Management API's audience (401).
    func managementToken(_ request: Request) throws(ManagementRefusal) -> (claims: JSONValue, scopes: Set<String>) {
        guard let (token, dpop) = presentedToken(request),
            let claims = signer.verifyAccessToken(token, issuer: config.issuer, now: now())
        else { throw ManagementRefusal(response: managementError(401, "Unauthorized", "Invalid token")) }
        if let refusal = boundTokenRefusal(request, token: token, dpopScheme: dpop, claims: claims) {
            throw ManagementRefusal(response: refusal)
        }
        let audiences = TenantSigner.audiences(claims)
        guard audiences.contains(config.managementAudience) else {
            throw ManagementRefusal(
                response: managementError(401, "Unauthorized", "Bad audience: \(audiences.joined(separator: " "))"))
        }
        return (claims, Set((claims["scope"]?.string ?? "").split(separator: " ").map(String.init)))
    }
}
