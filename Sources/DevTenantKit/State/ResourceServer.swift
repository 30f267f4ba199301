import Web

/// An API registered at the tenant (Auth0's resource server): access tokens for it carry its
/// identifier as `aud`; with RBAC (`enforce_policies`) a person gets only the scopes among their
/// permissions, and with `token_dialect` `access_token_authz` those also as the `permissions` claim.
public struct ResourceServer: Sendable, Equatable {
    /// `identifier`: the audience.
    public let identifier: String
    /// `name`.
    public let name: String
    /// `scopes[].value`.
    public let scopes: [String]
    /// `enforce_policies`: RBAC on.
    public let enforcesPolicies: Bool
    /// `token_dialect` is `access_token_authz`: the `permissions` claim is added.
    public let addsPermissions: Bool

    /// Reads `resource_servers` of the tenant's file, noting each problem.
    static func all(in document: JSONValue, problems: inout [String]) -> [ResourceServer] {
        var servers: [ResourceServer] = []
        for entry in document["resource_servers"]?.array ?? [] {
            guard let identifier = entry["identifier"]?.string, !identifier.isEmpty else {
                problems.append("DEV_TENANT_CONFIG: a resource server has no identifier")
                continue
            }
            servers.append(
                ResourceServer(
                    identifier: identifier, name: entry["name"]?.string ?? identifier,
                    scopes: entry["scopes"]?.array?.compactMap { $0["value"]?.string } ?? [],
                    enforcesPolicies: entry["enforce_policies"]?.bool ?? false,
                    addsPermissions: entry["token_dialect"]?.string == "access_token_authz"))
        }
        return servers
    }
}

/// One Multi-Resource Refresh Token policy of an application (`refresh_token.policies[]`): its
/// refresh tokens may be exchanged for access tokens to `audience` with at most `scope`.
public struct RefreshTokenPolicy: Sendable, Equatable {
    /// The API's identifier.
    public let audience: String
    /// The scopes allowed for it.
    public let scope: [String]

    /// The policies of an application's entry.
    static func all(in client: JSONValue) -> [RefreshTokenPolicy] {
        (client["refresh_token"]?["policies"]?.array ?? []).compactMap { entry in
            guard let audience = entry["audience"]?.string else { return nil }
            return RefreshTokenPolicy(audience: audience, scope: entry["scope"]?.array?.compactMap(\.string) ?? [])
        }
    }
}
