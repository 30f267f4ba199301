import Web

/// Reads and saves the person's metadata with the session's access token, renewing the token
/// first when `AccessTokenPolicy` says so. The session is changed in place: new tokens, and the
/// metadata as the Management API answered.
public struct MetadataAccess: Sendable {
    private let management: ManagementClient
    private let renewer: TokenRenewer
    private let clock: Clock
    private let events: any Auth0Events
    /// The `app_metadata` flags the snapshot notes (`RuleFacts`).
    private let flagNames: [String]

    /// Calls `management` with tokens renewed through `renewer`, reporting to `events`; each
    /// snapshot notes which of `flagNames` are on.
    public init(
        management: ManagementClient, renewer: TokenRenewer, clock: Clock, events: any Auth0Events,
        flagNames: [String] = []
    ) {
        self.flagNames = flagNames
        self.management = management
        self.renewer = renewer
        self.clock = clock
        self.events = events
    }

    /// False with a provider that is not Auth0: there is no metadata to read or save.
    public var isOffered: Bool { management.isOffered }

    /// Reads the metadata into `session`. Throws `SessionEnded` when the session can no longer
    /// call Auth0, or an `HTTPResponseError` (`ManagementError`, `AuthError`) for the tenant's trouble.
    public func refresh(_ session: inout Session) throws {
        guard management.isOffered else { throw ManagementError(.notOffered) }
        let user = session.profile.sub
        let token = try accessToken(&session)
        do {
            let document = try counted { try management.readMetadata(userID: user, accessToken: token) }
            session.metadata = snapshot(document, user: user)
        } catch let error as ManagementError {
            throw error.whileReading()
        }
    }

    /// Checks the session with the provider: its access token renewed with the refresh token (the
    /// check itself) and, where there is metadata (Auth0), the metadata read again. Throws as `refresh`.
    public func revalidate(_ session: inout Session) throws {
        guard management.isOffered else {
            _ = try accessToken(&session)
            return
        }
        try refresh(&session)
    }

    /// Saves `text` as the affirmation and keeps the metadata as saved in `session`; throws as `refresh`.
    public func save(_ text: String, in session: inout Session) throws {
        guard management.isOffered else { throw ManagementError(.notOffered) }
        let user = session.profile.sub
        let token = try accessToken(&session)
        let document = try counted { try management.saveAffirmation(text, userID: user, accessToken: token) }
        session.metadata = snapshot(document, user: user)
    }

    /// The token to call with, renewed first when due; the rotated refresh token is kept.
    private func accessToken(_ session: inout Session) throws -> String {
        let now = Int64(clock.now())
        switch AccessTokenPolicy.decide(
            token: session.accessToken, refreshToken: session.refreshToken, now: now)
        {
        case .use(let token):
            return token
        case .ended:
            throw SessionEnded("access_token_expired")
        case .renew(let refreshToken):
            let tokens: TokenSet
            do {
                tokens = try renewer.renew(refreshToken: refreshToken, session: session.renewalScope)
            } catch {
                events.renewalFailed(reason: error.code.rawValue)
                if error.code == .refreshRefused { throw SessionEnded(error.code.rawValue) }
                throw error  // the tenant's trouble: the session stays, the next request tries again
            }
            events.renewed()
            session.accessToken = AccessToken(
                value: tokens.accessToken, expiresAt: Int64(clock.now()) + tokens.expiresIn)
            if let rotated = tokens.refreshToken { session.refreshToken = rotated }
            return tokens.accessToken
        }
    }

    /// Runs a Management API call and reports its outcome; a refused token ends the session.
    private func counted(_ call: () throws -> UserMetadataDocument) throws -> UserMetadataDocument {
        do {
            let document = try call()
            events.managementCall(outcome: "200")
            return document
        } catch let error as ManagementError {
            events.managementCall(outcome: error.answerStatus > 0 ? String(error.answerStatus) : error.kind.rawValue)
            if error.kind == .unauthorized { throw SessionEnded("management_api_unauthorized") }
            throw error
        }
    }

    private func snapshot(_ document: UserMetadataDocument, user: String) -> MetadataSnapshot {
        MetadataSnapshot(document: document, flagNames: flagNames) { _ in events.announcementRefused(user: user) }
    }
}

extension Session {
    /// What a renewal's result is shared within: this person's login that began at `createdAt`.
    var renewalScope: String { self.profile.sub + "\u{0}" + String(self.createdAt) }
}
