import Foundation
import Locking
import OpenSSLCrypto
import Web

/// The dev tenant's state: people, codes, refresh tokens, tenant sessions and consent. People,
/// refresh tokens and consent are saved to the state file (`TenantStore+StateFile`) before an
/// answer that changed them is sent, so a restart loses nothing.
final class TenantStore: Sendable {
    struct State {
        var users: [String: TenantUser] = [:]
        var codes: [String: CodeGrant] = [:]
        var transferTokens: [String: TransferGrant] = [:]
        var pushedRequests: [String: PushedRequest] = [:]
        /// The `jti`s of one-use JWTs seen (client assertions, DPoP proofs), by sender, until they expire.
        var usedJTIs: [String: Double] = [:]
        var refreshTokens: [String: RefreshGrant] = [:]
        /// Tenant sessions (`sid`) by person, and those that ended (logout, deletion).
        var sessions: [String: Set<String>] = [:]
        var endedSessions: Set<String> = []
        /// Scopes each person authorized each application for (the consent screen's Accept).
        var grants: [String: [String: Set<String>]] = [:]
    }

    let state = Lock(State())
    /// One save at a time, so an older snapshot never replaces a newer one.
    let saveLock = Lock(())
    let file: String
    private let clock: Clock
    /// The tenant's applications, APIs, grants, Actions, factors and settings.
    let directory: TenantDirectory

    init(config: TenantConfig, clock: Clock) throws {
        file = config.stateFile
        self.clock = clock
        let saved = TenantStore.load(file: file, config: config, now: isoTime(clock.now()))
        directory = TenantDirectory(saved.directory, managementAudience: config.managementAudience)
        state.withLock {
            $0.users = saved.users
            $0.refreshTokens = saved.refreshTokens
            $0.grants = saved.grants
        }
        try save()
    }

    /// Changes the directory's documents and saves before returning (a throw leaves both as they were).
    func changeDirectory<T, Failure: Error>(_ body: (inout TenantDirectory.Objects) throws(Failure) -> T) throws -> T {
        let result = try directory.change(body)
        try save()
        return result
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

    func addCode(_ grant: CodeGrant) -> String { addOnce(grant, to: \.codes) }

    /// Takes a code out: it works once, whatever happens next.
    func takeCode(_ code: String) -> CodeGrant? { takeOnce(code, from: \.codes) }

    /// Keeps `grant` under a new random key (dropping the expired ones) and returns the key.
    private func addOnce<Grant: ExpiringGrant>(_ grant: Grant, to table: WritableKeyPath<State, [String: Grant]>)
        -> String
    {
        let key = Base64URL.encode(SecureRandom.bytes(24))
        state.withLock {
            let now = clock.now()
            $0[keyPath: table] = $0[keyPath: table].filter { $0.value.expiresAt > now }
            $0[keyPath: table][key] = grant
        }
        return key
    }

    /// Takes the grant of `key` out, live or not: each works once.
    private func takeOnce<Grant: ExpiringGrant>(_ key: String, from table: WritableKeyPath<State, [String: Grant]>)
        -> Grant?
    {
        state.withLock { $0[keyPath: table].removeValue(forKey: key) }.flatMap { $0.expiresAt > clock.now() ? $0 : nil }
    }

    // MARK: Pushed authorization requests

    /// Keeps a pushed request and returns the random part of its reference.
    func addPushedRequest(_ request: PushedRequest) -> String { addOnce(request, to: \.pushedRequests) }

    /// Takes a pushed request out: its reference works once, whatever happens next.
    func takePushedRequest(_ key: String) -> PushedRequest? { takeOnce(key, from: \.pushedRequests) }

    /// The nonce DPoP proofs carry when the tenant asks for one: new with each start.
    let dpopNonce = Base64URL.encode(SecureRandom.bytes(16))

    // MARK: One-use JWTs

    /// True the first time a JWT of `sender` (a client, or the DPoP proofs) with `jti`, valid
    /// until `expiresAt`, is seen.
    func firstUse(ofJTI jti: String, from sender: String, until expiresAt: Double) -> Bool {
        state.withLock {
            let now = clock.now()
            $0.usedJTIs = $0.usedJTIs.filter { $0.value > now }
            return $0.usedJTIs.updateValue(expiresAt, forKey: sender + "\u{0}" + jti) == nil
        }
    }

    // MARK: Session transfer tokens

    /// Keeps a session transfer token and returns it.
    func addTransferToken(_ grant: TransferGrant) -> String { addOnce(grant, to: \.transferTokens) }

    /// Takes a session transfer token out: it works once, whether it was honoured or not.
    func takeTransferToken(_ token: String) -> TransferGrant? { takeOnce(token, from: \.transferTokens) }

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

    /// A live, unused refresh token of `clientID`, left as it is (the session transfer exchange
    /// does not rotate it).
    func peekRefreshToken(_ token: String, clientID: String) -> RefreshGrant? {
        state.withLock { $0.refreshTokens[token] }.flatMap {
            $0.clientID == clientID && !$0.used && $0.expiresAt > clock.now() ? $0 : nil
        }
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
}
