import Foundation
import Web

/// The state file: people, refresh tokens and consent, written atomically (temp file, fsync,
/// rename), one save at a time so an older snapshot never replaces a newer one.
extension TenantStore {
    /// What the state file holds, or the configuration's seed people when there is none.
    static func load(file: String, config: TenantConfig, now: String) -> (
        users: [String: TenantUser], refreshTokens: [String: RefreshGrant], grants: [String: [String: Set<String>]],
        directory: TenantDirectory.Objects
    ) {
        var directory = TenantDirectory.Objects(
            seed: config.seed, managementAudience: config.managementAudience, now: now)
        var users: [String: TenantUser] = [:]
        var refresh: [String: RefreshGrant] = [:]
        var grants: [String: [String: Set<String>]] = [:]
        if let data = FileManager.default.contents(atPath: file), let saved = JSONValue.parse(Array(data)) {
            for json in saved["users"]?.array ?? [] {
                if let user = TenantUser(json: json, issuer: config.issuer, now: now) { users[user.userID] = user }
            }
            for (token, grant) in saved["refresh_tokens"]?.object ?? [:] {
                if let grant = RefreshGrant(json: grant) { refresh[token] = grant }
            }
            for (userID, clients) in saved["grants"]?.object ?? [:] {
                for (clientID, scope) in clients.object ?? [:] {
                    grants[userID, default: [:]][clientID] = Self.scopes(scope.string ?? "")
                }
            }
            // The saved objects while the tenant file is the one they started from.
            if let objects = saved["directory"].flatMap(TenantDirectory.Objects.init(saved:)),
                objects.seedFingerprint == config.seed.fingerprint
            {
                directory = objects
            }
        } else {
            for json in config.seedUsers {
                if let user = TenantUser(json: json, issuer: config.issuer, now: now) { users[user.userID] = user }
            }
        }
        return (users, refresh, grants, directory)
    }

    func save() throws {
        try saveLock.withLock { _ in
            let directory = directory.read(\.saved)
            let document: JSONValue = state.withLock { state in
                .object([
                    "directory": directory,
                    "users": .array(state.users.values.sorted { $0.userID < $1.userID }.map(\.savedJSON)),
                    "refresh_tokens": .object(state.refreshTokens.mapValues(\.json)),
                    "grants": .object(
                        state.grants.mapValues { clients in
                            .object(clients.mapValues { .string($0.sorted().joined(separator: " ")) })
                        }),
                ])
            }
            try AtomicFile.write(document.serialized(), to: file)
        }
    }
}
