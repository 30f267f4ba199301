import Foundation
import OpenSSLCrypto
import Synchronization
import Web

/// An authorization code waiting to be exchanged (kept in memory: codes live a minute).
struct CodeGrant: Sendable {
    let clientID: String
    let redirectURI: String
    let userID: String
    let nonce: String?
    let scope: String
    let audience: String?
    let codeChallenge: String?
    let challengeMethod: String
    let sessionID: String
    let expiresAt: Double
}

/// A refresh token and its family (all tokens rotated from one login).
struct RefreshGrant: Sendable {
    let family: String
    let clientID: String
    let userID: String
    let scope: String
    let audience: String?
    let sessionID: String
    /// The family's absolute expiry: rotation does not extend it.
    let expiresAt: Double
    var used: Bool
}

/// The dev tenant's state: people, codes, refresh tokens, rate windows. People and refresh
/// tokens are saved to the state file (atomically: temp file, fsync, rename) before an answer
/// that changed them is sent, so a restart loses nothing.
final class TenantStore: Sendable {
    private struct State {
        var users: [String: TenantUser] = [:]
        var codes: [String: CodeGrant] = [:]
        var refreshTokens: [String: RefreshGrant] = [:]
        var rateWindows: [String: (start: Double, count: Int)] = [:]
        /// Tenant sessions (`sid`) by person, and those that ended (logout, deletion).
        var sessions: [String: Set<String>] = [:]
        var endedSessions: Set<String> = []
        /// Scopes each person authorized each application for (the consent screen's Accept).
        var grants: [String: [String: Set<String>]] = [:]
    }

    private let state = Mutex(State())
    /// One save at a time, so an older snapshot never replaces a newer one.
    private let saveLock = Mutex(())
    private let file: String
    private let clock: Clock

    init(config: TenantConfig, clock: Clock) throws {
        file = config.stateFile
        self.clock = clock
        let now = isoTime(clock.now())
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
        } else {
            for json in config.seedUsers {
                if let user = TenantUser(json: json, issuer: config.issuer, now: now) { users[user.userID] = user }
            }
        }
        state.withLock {
            $0.users = users
            $0.refreshTokens = refresh
            $0.grants = grants
        }
        try save()
    }

    // MARK: Consent

    /// The scopes of a space-separated list.
    static func scopes(_ list: String) -> Set<String> { Set(list.split(separator: " ").map(String.init)) }

    /// True when `userID` has authorized `clientID` for every scope of `scope`.
    func hasGranted(userID: String, clientID: String, scope: String) -> Bool {
        state.withLock { Self.scopes(scope).isSubset(of: $0.grants[userID]?[clientID] ?? []) }
    }

    /// Records an Accept (adding to what was granted before) and saves.
    func grant(userID: String, clientID: String, scope: String) throws {
        state.withLock { $0.grants[userID, default: [:]][clientID, default: []].formUnion(Self.scopes(scope)) }
        try save()
    }

    // MARK: People

    func user(id: String) -> TenantUser? { state.withLock { $0.users[id] } }

    func user(email: String) -> TenantUser? {
        state.withLock { $0.users.values.first { $0.email.lowercased() == email.lowercased() } }
    }

    /// Changes a user and saves before returning the result.
    func updateUser(id: String, _ change: (inout TenantUser) throws -> Void) throws -> TenantUser? {
        let updated: TenantUser? = try state.withLock {
            guard var user = $0.users[id] else { return nil }
            try change(&user)
            $0.users[id] = user
            return user
        }
        if updated != nil { try save() }
        return updated
    }

    // MARK: Codes

    func addCode(_ grant: CodeGrant) -> String {
        let code = Base64URL.encode(SecureRandom.bytes(24))
        state.withLock {
            let now = clock.now()
            $0.codes = $0.codes.filter { $0.value.expiresAt > now }
            $0.codes[code] = grant
        }
        return code
    }

    /// Takes a code out: it works once, whatever happens next.
    func takeCode(_ code: String) -> CodeGrant? {
        state.withLock { $0.codes.removeValue(forKey: code) }.flatMap { $0.expiresAt > clock.now() ? $0 : nil }
    }

    // MARK: Refresh tokens

    func addRefreshToken(_ grant: RefreshGrant) throws -> String {
        let token = "v1." + Base64URL.encode(SecureRandom.bytes(32))
        state.withLock { $0.refreshTokens[token] = grant }
        try save()
        return token
    }

    enum RefreshOutcome { case valid(RefreshGrant), unknown, reused }

    /// Marks a refresh token used. A token used before revokes its whole family (reuse detection).
    func useRefreshToken(_ token: String, clientID: String) throws -> RefreshOutcome {
        let outcome: RefreshOutcome = state.withLock {
            guard var grant = $0.refreshTokens[token], grant.clientID == clientID, grant.expiresAt > clock.now() else {
                return .unknown
            }
            if grant.used {
                let family = grant.family
                $0.refreshTokens = $0.refreshTokens.filter { $0.value.family != family }
                return .reused
            }
            grant.used = true
            $0.refreshTokens[token] = grant
            return .valid(grant)
        }
        if case .unknown = outcome { return outcome }
        try save()
        return outcome
    }

    /// Revokes a refresh token's whole family (RFC 7009: an unknown token is not an error).
    func revokeRefreshToken(_ token: String, clientID: String) throws {
        let revoked: Bool = state.withLock {
            guard let grant = $0.refreshTokens[token], grant.clientID == clientID else { return false }
            let family = grant.family
            $0.refreshTokens = $0.refreshTokens.filter { $0.value.family != family }
            return true
        }
        if revoked { try save() }
    }

    // MARK: Tenant sessions

    /// Remembers that `sid` is a session of `userID` (a login at the tenant).
    func addSession(_ sid: String, userID: String) {
        state.withLock { _ = $0.sessions[userID, default: []].insert(sid) }
    }

    /// Ends one tenant session (a logout).
    func endSession(_ sid: String) {
        state.withLock { _ = $0.endedSessions.insert(sid) }
    }

    /// Ends every session of `userID` (the Management API's session deletion).
    func endSessions(of userID: String) {
        state.withLock { state in
            state.endedSessions.formUnion(state.sessions[userID] ?? [])
            state.sessions[userID] = nil
        }
    }

    /// True while the tenant session `sid` has not ended.
    func isLive(session sid: String) -> Bool { state.withLock { !$0.endedSessions.contains(sid) } }

    // MARK: Rate limits

    /// Counts a call against a per-key window of one minute; returns (allowed, limit, remaining, reset).
    func countCall(key: String, limit: Int) -> (allowed: Bool, remaining: Int, reset: Int64) {
        state.withLock {
            let now = clock.now()
            var window = $0.rateWindows[key] ?? (now, 0)
            if now - window.start >= 60 { window = (now, 0) }
            window.count += 1
            $0.rateWindows[key] = window
            return (window.count <= limit, max(0, limit - window.count), Int64((window.start + 60).rounded(.up)))
        }
    }

    // MARK: Saving

    private func save() throws {
        try saveLock.withLock { _ in
            let document: JSONValue = state.withLock { state in
                .object([
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

extension RefreshGrant {
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "family": .string(family), "client_id": .string(clientID), "user_id": .string(userID),
            "scope": .string(scope), "sid": .string(sessionID), "expires_at": .number(expiresAt), "used": .bool(used),
        ]
        if let audience { object["audience"] = .string(audience) }
        return .object(object)
    }

    init?(json: JSONValue) {
        guard let family = json["family"]?.string, let client = json["client_id"]?.string,
            let user = json["user_id"]?.string, let scope = json["scope"]?.string, let sid = json["sid"]?.string,
            let expires = json["expires_at"]?.number, let used = json["used"]?.bool
        else { return nil }
        self.init(
            family: family, clientID: client, userID: user, scope: scope, audience: json["audience"]?.string,
            sessionID: sid, expiresAt: expires, used: used)
    }
}

/// Writes a file so that a crash leaves either the old or the new contents, never a mix.
enum AtomicFile {
    static func write(_ bytes: [UInt8], to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission) }
        let written = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd)
        close(fd)
        guard written == bytes.count, synced == 0, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown)
        }
    }
}
