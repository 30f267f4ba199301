import Web

/// Who is logged in: what the product knows of them and the tokens it calls Auth0 with.
/// Kept only inside sealed cookies: the access token in its own cookie, sent by the browser only
/// to the route that calls the Management API (see `SessionCookies`), everything else in the
/// session cookie every page view opens.
@dynamicMemberLookup
public struct Session: Sendable, Equatable {
    /// The person's profile, from the ID token's claims.
    public struct Profile: Sendable, Equatable {
        /// The person's id at the tenant (`sub`).
        public var sub: String
        /// `name`, else `nickname`.
        public var name: String
        /// `email`.
        public var email: String
        /// `email_verified`; nil when the provider did not say (nothing is claimed for it).
        public var emailVerified: Bool?
        /// `picture`, when it is a safe http(s) link; else empty.
        public var picture: String
        /// `updated_at`.
        public var updatedAt: String

        /// A profile with these claims.
        public init(
            sub: String, name: String, email: String, emailVerified: Bool?, picture: String,
            updatedAt: String
        ) {
            self.sub = sub
            self.name = name
            self.email = email
            self.emailVerified = emailVerified
            self.picture = picture
            self.updatedAt = updatedAt
        }
    }

    /// What a session holds, read and changed through the session as if they were its own
    /// properties (`session.profile.name`; inside the session's own extensions `self.profile`,
    /// since a member found by dynamic lookup is not in scope without it).
    public struct Fields: Sendable, Equatable {
        /// Who the person is, from the ID token.
        public var profile: Profile
        /// The Management API access token; nil when the request did not carry it (page views never
        /// do) or it was lost, in which case the refresh token gets a new one when one is needed.
        public var accessToken: AccessToken?
        /// The refresh token, when `offline_access` was granted.
        public var refreshToken: String?
        /// The tenant's session id (`sid`), for OIDC logout's `logout_hint`.
        public var tenantSessionID: String?
        /// The ID token of the login, kept for a provider that is not Auth0 to send back as
        /// `id_token_hint` at logout (some redirect back only with it); nil with Auth0, whose cookie
        /// stays small.
        public var idTokenHint: String?
        /// The token every form of this session must carry.
        public var csrfToken: String
        /// The person's metadata as last fetched from the Management API.
        public var metadata: MetadataSnapshot
        /// When the person logged in (seconds since 1970): the absolute lifetime counts from here.
        public var createdAt: Int64
        /// When the tenant last confirmed the session (login, or a revalidation's renewal).
        public var checkedAt: Int64
        /// The person's roles from the ID token's roles claim (`RuleFacts.rolesClaim`), for mini
        /// apps' rules; empty when none is configured.
        public var roles: [String]
        /// How the person last authenticated at the provider, from the ID token: `auth_time` (nil
        /// when it did not say), `acr` and `amr`; a mini app's step-up is judged from these.
        public var authTime: Int64?
        /// `acr`: the authentication context class the provider says the login met.
        public var acr: String?
        /// `amr`: how the person authenticated (`pwd`, `mfa`, …).
        public var amr: [String]
    }

    /// The fields, shared by the copies of a session until one of them changes: every page view
    /// takes a copy of the session its thread opened before (`OpenedSessions`).
    private var stored: CopyOnWrite<Fields>

    /// A field of the session.
    public subscript<Field>(dynamicMember field: WritableKeyPath<Fields, Field>) -> Field {
        get { stored.value[keyPath: field] }
        set { stored.value[keyPath: field] = newValue }
    }

    /// Alike when every field is; copies of one another are alike without reading them.
    public static func == (left: Session, right: Session) -> Bool {
        left.stored.isShared(with: right.stored) || left.stored.value == right.stored.value
    }

    /// A session with these values.
    public init(
        profile: Profile, accessToken: AccessToken?, refreshToken: String?,
        tenantSessionID: String?, csrfToken: String, metadata: MetadataSnapshot = MetadataSnapshot(),
        createdAt: Int64, checkedAt: Int64? = nil, idTokenHint: String? = nil, roles: [String] = [],
        authTime: Int64? = nil, acr: String? = nil, amr: [String] = []
    ) {
        stored = CopyOnWrite(
            Fields(
                profile: profile, accessToken: accessToken, refreshToken: refreshToken,
                tenantSessionID: tenantSessionID, idTokenHint: idTokenHint, csrfToken: csrfToken,
                metadata: metadata, createdAt: createdAt, checkedAt: checkedAt ?? createdAt, roles: roles,
                authTime: authTime, acr: acr, amr: amr))
    }
}
