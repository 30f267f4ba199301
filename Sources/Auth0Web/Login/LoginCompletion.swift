import Web

/// Finishes a login at the callback: the transaction of `state`, the code exchange, the ID
/// token's checks, the claims it lacks from UserInfo (a provider that is not Auth0), the session
/// made from them, and (like the iOS app's `getMetadata()`
/// after login) the first metadata fetch, or the save that was pending when the login began.
public struct LoginCompletion: Sendable {
    private let transactions: TransactionCookies
    private let tokens: TokenClient
    private let idTokens: IDTokenVerifier
    private let userinfo: UserInfoClient?
    private let keepsIDToken: Bool
    private let metadata: MetadataAccess
    private let clock: Clock
    /// The response's issuer and the ID token's `s_hash`, checked as the provider requires.
    private let checks: CallbackChecks
    /// Where the ID token lists the person's roles.
    private let ruleFacts: RuleFacts
    /// Orders each login after the ends of the person's sessions it knows.
    private let ledger: SessionLedger?

    /// Completes logins with these mechanisms, each callback checked as `checks` says (no check
    /// has a lenient default: the wiring must say what the provider requires).
    public init(
        transactions: TransactionCookies, tokens: TokenClient, idTokens: IDTokenVerifier,
        userinfo: UserInfoClient? = nil, keepsIDToken: Bool = false, metadata: MetadataAccess, clock: Clock,
        checks: CallbackChecks, ruleFacts: RuleFacts = .none, ledger: SessionLedger? = nil
    ) {
        self.checks = checks
        self.ledger = ledger
        self.ruleFacts = ruleFacts
        self.userinfo = userinfo
        self.keepsIDToken = keepsIDToken
        self.transactions = transactions
        self.tokens = tokens
        self.idTokens = idTokens
        self.metadata = metadata
        self.clock = clock
    }

    /// A finished login.
    public struct Completed {
        /// The new session, with the metadata when it could be fetched.
        public var session: Session
        /// The relative path to go back to.
        public let returnTo: String
        /// What became of the metadata.
        public let metadata: MetadataOutcome
    }

    /// What became of the first metadata call; the login stands whatever it was.
    public enum MetadataOutcome {
        /// Fetched.
        case loaded
        /// The pending affirmation was saved.
        case saved
        /// Could not be fetched (the page shows the profile without it, and why).
        case notLoaded(any HTTPResponseError)
        /// The pending affirmation could not be saved: the page shows it again with why.
        case notSaved(text: String, any HTTPResponseError)
    }

    /// Finishes the login that `query` (the callback's parameters) answers; throws `AuthError`
    /// naming the first check that failed.
    public func finish(query: FormData, cookies: Cookies) throws(AuthError) -> Completed {
        let state = query["state"] ?? ""
        guard !state.isEmpty else { throw AuthError(.missingState) }
        guard let transaction = transactions.find(state: state, in: cookies) else { throw AuthError(.unknownState) }
        // RFC 9207: a response that names its issuer names this provider's (else another provider's
        // code or error was sent here: a mix-up), and one that must name it does.
        if let named = query["iss"] {
            guard named == checks.issuer else { throw AuthError(.wrongResponseIssuer) }
        } else if checks.issuerAlwaysSent {
            throw AuthError(.missingResponseIssuer)
        }
        if let error = query["error"] { throw AuthError(.tenantError, error) }
        guard let code = query["code"], !code.isEmpty else { throw AuthError(.missingCode) }
        let tokens = try tokens.exchange(code: code, codeVerifier: transaction.codeVerifier)
        guard let idToken = tokens.idToken else { throw AuthError(.badTokenResponse, "no id_token") }
        var claims = try idTokens.verify(idToken, nonce: transaction.nonce)
        try StateHash.check(
            claims["s_hash"]?.string, state: state, algorithm: checks.stateHashAlgorithm,
            required: checks.stateHashRequired)
        if let userinfo { claims = try userinfo.complete(claims, accessToken: tokens.accessToken) }
        let now = Int64(clock.now())
        // How the person authenticated: the stronger authentication asked for is shown in the
        // token, or the login does not stand; the session keeps it for mini apps' step-up.
        let authTime = NumericDate.seconds(claims["auth_time"])
        let acr = claims["acr"]?.string
        let amr = claims["amr"]?.array?.compactMap(\.string) ?? []
        if let stepUp = transaction.stepUp, !stepUp.isMet(authTime: authTime, acr: acr, amr: amr, now: now) {
            throw AuthError(.stepUpNotMet, "auth_time, acr or amr")
        }
        let profile = Session.Profile(claims: claims)
        var session = Session(
            profile: profile,
            accessToken: AccessToken(value: tokens.accessToken, expiresAt: now + tokens.expiresIn),
            refreshToken: tokens.refreshToken, tenantSessionID: claims["sid"]?.string, csrfToken: PKCE.randomToken(),
            createdAt: ledger?.loginTime(of: profile.sub, now: now) ?? now, idTokenHint: keepsIDToken ? idToken : nil,
            roles: ruleFacts.roles(in: claims),
            authTime: authTime, acr: acr, amr: amr)
        let outcome = firstMetadata(&session, pending: transaction.pendingAffirmation)
        return Completed(session: session, returnTo: transaction.returnTo, metadata: outcome)
    }

    private func firstMetadata(_ session: inout Session, pending: String?) -> MetadataOutcome {
        // A provider without metadata: the page says so itself; nothing to fetch or complain of.
        if !metadata.isOffered, pending == nil { return .loaded }
        guard let pending else {
            do {
                try metadata.refresh(&session)
                return .loaded
            } catch {
                return .notLoaded(Self.responseError(error))
            }
        }
        do {
            try metadata.save(pending, in: &session)
            return .saved
        } catch {
            try? metadata.refresh(&session)  // show what is saved, beside the text that was not
            return .notSaved(text: pending, Self.responseError(error))
        }
    }

    /// Errors from the mechanisms reach people as themselves; anything else as the tenant's trouble.
    private static func responseError(_ error: any Error) -> any HTTPResponseError {
        error as? any HTTPResponseError ?? ManagementError(.badResponse)
    }
}

extension Session.Profile {
    /// The profile from an ID token's verified claims; a picture that is not a safe link is dropped.
    init(claims: JSONValue) {
        self.init(
            sub: claims["sub"]?.string ?? "", name: claims["name"]?.string ?? claims["nickname"]?.string ?? "",
            email: claims["email"]?.string ?? "", emailVerified: claims["email_verified"]?.bool,
            picture: claims["picture"]?.string.flatMap { MetadataSnapshot.isSafeLink($0) ? $0 : nil } ?? "",
            updatedAt: claims["updated_at"]?.string ?? "")
    }
}
