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
    /// `token_lifetime`: seconds its access tokens live; nil: the tenant's default.
    public let tokenLifetime: Int64?

    /// Reads `resource_servers` of the tenant's file, noting each problem.
    static func all(in document: JSONValue, problems: inout [String]) -> [ResourceServer] {
        var servers: [ResourceServer] = []
        for entry in document["resource_servers"]?.array ?? [] {
            guard let identifier = entry["identifier"]?.string, !identifier.isEmpty else {
                problems.append("a resource server has no identifier")
                continue
            }
            servers.append(
                ResourceServer(
                    identifier: identifier, name: entry["name"]?.string ?? identifier,
                    scopes: entry["scopes"]?.array?.compactMap { $0["value"]?.string } ?? [],
                    enforcesPolicies: entry["enforce_policies"]?.bool ?? false,
                    addsPermissions: entry["token_dialect"]?.string == "access_token_authz",
                    tokenLifetime: lifetime(entry, identifier, &problems)))
        }
        return servers
    }

    /// `token_lifetime` of `entry`, when it gives one: whole seconds, from a minute to 30 days
    /// (Auth0's bounds for an API's tokens).
    private static func lifetime(_ entry: JSONValue, _ identifier: String, _ problems: inout [String]) -> Int64? {
        guard let value = entry["token_lifetime"] else { return nil }
        guard let seconds = value.number, seconds == seconds.rounded(), seconds >= 60, seconds <= 2_592_000 else {
            problems.append("\(identifier)'s token_lifetime is not 60 to 2592000 seconds")
            return nil
        }
        return Int64(seconds)
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
