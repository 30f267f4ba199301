import Web

/// Who is logged in: what the product knows of them and the tokens it calls Auth0 with.
/// Kept only inside sealed cookies: the access token in its own cookie, sent by the browser only
/// to the route that calls the Management API (see `SessionCookies`), everything else in the
/// session cookie every page view opens.
public struct Session: Sendable, Equatable {
    /// The person's profile, from the ID token's claims.
    public struct Profile: Sendable, Equatable {
        /// The person's id at the tenant (`sub`).
        public var sub: TextBytes
        /// `name`, else `nickname`.
        public var name: TextBytes
        /// `email`.
        public var email: TextBytes
        /// `email_verified`; nil when the provider did not say (nothing is claimed for it).
        public var emailVerified: Bool?
        /// `picture`, when it is a safe http(s) link; else empty.
        public var picture: TextBytes
        /// `updated_at`.
        public var updatedAt: TextBytes

        /// A profile with these claims.
        public init(
            sub: TextBytes, name: TextBytes, email: TextBytes, emailVerified: Bool?, picture: TextBytes,
            updatedAt: TextBytes
        ) {
            self.sub = sub
            self.name = name
            self.email = email
            self.emailVerified = emailVerified
            self.picture = picture
            self.updatedAt = updatedAt
        }

        /// A profile with these claims.
        public init(sub: String, name: String, email: String, emailVerified: Bool?, picture: String, updatedAt: String)
        {
            self.init(
                sub: TextBytes(sub), name: TextBytes(name), email: TextBytes(email), emailVerified: emailVerified,
                picture: TextBytes(picture),
                updatedAt: TextBytes(updatedAt))
        }
    }

    /// Who the person is, from the ID token.
    public var profile: Profile
    /// The Management API access token; nil when the request did not carry it (page views never
    /// do) or it was lost, in which case the refresh token gets a new one when one is needed.
    public var accessToken: AccessToken?
    /// The refresh token, when `offline_access` was granted.
    public var refreshToken: TextBytes?
    /// The tenant's session id (`sid`), for OIDC logout's `logout_hint`.
    public var tenantSessionID: TextBytes?
    /// The ID token of the login, kept for a provider that is not Auth0 to send back as
    /// `id_token_hint` at logout (some redirect back only with it); nil with Auth0, whose cookie
    /// stays small.
    public var idTokenHint: TextBytes?
    /// The token every form of this session must carry.
    public var csrfToken: TextBytes
    /// The person's metadata as last fetched from the Management API.
    public var metadata: MetadataSnapshot
    /// When the person logged in (seconds since 1970): the absolute lifetime counts from here.
    public var createdAt: Int64
    /// When the tenant last confirmed the session (login, or a revalidation's renewal).
    public var checkedAt: Int64

    /// A session with these values.
    public init(
        profile: Profile, accessToken: AccessToken?, refreshToken: String?,
        tenantSessionID: String?, csrfToken: String, metadata: MetadataSnapshot = MetadataSnapshot(),
        createdAt: Int64, checkedAt: Int64? = nil, idTokenHint: String? = nil
    ) {
        self.init(
            opened: profile, refreshToken: refreshToken.map { TextBytes($0) },
            tenantSessionID: tenantSessionID.map { TextBytes($0) },
            csrfToken: TextBytes(csrfToken), metadata: metadata, createdAt: createdAt,
            checkedAt: checkedAt ?? createdAt,
            idTokenHint: idTokenHint.map { TextBytes($0) })
        self.accessToken = accessToken
    }

    /// A session opened from its cookie: its texts are places in one copy of the opened payload
    /// (`TextBytes`, see `Session+Bytes`).
    init(
        opened profile: Profile, refreshToken: TextBytes?, tenantSessionID: TextBytes?, csrfToken: TextBytes,
        metadata: MetadataSnapshot, createdAt: Int64, checkedAt: Int64, idTokenHint: TextBytes?
    ) {
        self.profile = profile
        self.accessToken = nil
        self.refreshToken = refreshToken
        self.tenantSessionID = tenantSessionID
        self.csrfToken = csrfToken
        self.metadata = metadata
        self.createdAt = createdAt
        self.checkedAt = checkedAt
        self.idTokenHint = idTokenHint
    }
}
