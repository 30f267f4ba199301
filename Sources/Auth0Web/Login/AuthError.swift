import Web

/// Why a login or a token call failed, with a stable code for logs and metrics and a plain page
/// for the person. Descriptions never hold tokens, codes or cookies.
public struct AuthError: HTTPResponseError, Equatable, CustomStringConvertible {
    /// The stable code, logged and counted.
    public enum Code: String, Sendable, CaseIterable {
        // The callback
        case missingState = "missing_state"
        case unknownState = "unknown_state"
        case tenantError = "tenant_error"
        case missingCode = "missing_code"
        /// The authorization response names another issuer (RFC 9207: a mix-up of providers).
        case wrongResponseIssuer = "wrong_response_issuer"
        /// The provider says it names itself in authorization responses, and this one does not.
        case missingResponseIssuer = "missing_response_issuer"
        /// The provider refused the login's pushed authorization request (RFC 9126), or answered
        /// it without a reference: the login cannot start.
        case authorizationPushFailed = "authorization_push_failed"
        // Token endpoint
        case codeExchangeFailed = "code_exchange_failed"
        /// The tenant refused the refresh token (`invalid_grant`): the session can no longer call Auth0.
        case refreshRefused = "refresh_refused"
        /// Any other refusal of a renewal (a wrong client secret, say): logging in again would not help.
        case refreshFailed = "refresh_failed"
        case revocationFailed = "revocation_failed"
        /// The client assertion (`private_key_jwt`) could not be signed.
        case clientAssertionFailed = "client_assertion_failed"
        /// The login's request object could not be signed.
        case requestObjectFailed = "request_object_failed"
        /// No answer at all (timeout, no connection).
        case tenantUnreachable = "tenant_unreachable"
        /// The tenant answered 429 or 5xx: its trouble, not the request's; try again later.
        case tenantUnavailable = "tenant_unavailable"
        case badTokenResponse = "bad_token_response"
        // ID token
        case malformedToken = "malformed_token"
        case unsupportedAlgorithm = "unsupported_algorithm"
        case unknownKey = "unknown_key"
        case badSignature = "bad_signature"
        case wrongIssuer = "wrong_issuer"
        case wrongAudience = "wrong_audience"
        case wrongAuthorizedParty = "wrong_azp"
        case expired = "expired"
        case issuedInFuture = "issued_in_future"
        case nonceMismatch = "nonce_mismatch"
        /// The ID token's `s_hash` is not the hash of the response's `state`, or is missing where
        /// the security profile requires it (FAPI 1.0 Advanced §5.2.2.1).
        case stateHashMismatch = "state_hash_mismatch"
        case missingClaim = "missing_claim"
        case jwksUnavailable = "jwks_unavailable"
        /// The ID token does not show the stronger authentication the login asked for (`max_age`,
        /// `acr_values`): `auth_time` too old, or no `acr`/`amr` saying the second factor.
        case stepUpNotMet = "step_up_not_met"
        // UserInfo
        /// UserInfo refused the access token or answered something that is not a JSON object.
        case userinfoFailed = "userinfo_failed"
        /// UserInfo answered for another `sub` than the ID token's.
        case userinfoWrongSubject = "userinfo_wrong_subject"
        // Logout token (back-channel logout)
        /// Not a logout token: no back-channel logout event, a `nonce`, or neither `sid` nor `sub`.
        case notALogoutToken = "not_a_logout_token"
        /// A logout token whose `jti` was seen before.
        case replayedLogoutToken = "replayed_logout_token"
    }

    /// What failed.
    public let code: Code
    /// Safe detail for the log (an OAuth error name, a status, a claim name).
    public let detail: String
    /// The tenant's status when it answered with an error; nil when it did not answer or the
    /// failure was not its answer's.
    public let answerStatus: Int?
    /// The OAuth `error` the tenant sent (`invalid_grant`, `unauthorized_client`, …), if any.
    public let oauthError: String?
    /// The tenant's `error_description`, for the operator's log: at most 200 characters, control
    /// characters removed (it is the provider's text, not ours); "" when it sent none.
    public let oauthDescription: String

    /// An error with a stable code and safe detail.
    public init(
        _ code: Code, _ detail: String = "", answerStatus: Int? = nil, oauthError: String? = nil,
        oauthDescription: String? = nil
    ) {
        self.code = code
        self.detail = detail
        self.answerStatus = answerStatus
        self.oauthError = oauthError
        self.oauthDescription = String(
            String.UnicodeScalarView(
                (oauthDescription ?? "").unicodeScalars.filter { $0.properties.generalCategory != .control }
            )
            .prefix(200))
    }

    /// Equal when the code and the detail are: the answer's typed fields say what the detail says.
    public static func == (lhs: AuthError, rhs: AuthError) -> Bool { lhs.code == rhs.code && lhs.detail == rhs.detail }

    /// `code: detail`, for the log.
    public var description: String { detail.isEmpty ? code.rawValue : "\(code.rawValue): \(detail)" }

    /// The status of the page that explains this failure.
    public var status: Int { page.status }
    /// Its page offers `Log in`: every failed login does (never a redirect loop).
    public var offersLogin: Bool { true }

    /// Its words in the pages' catalogue.
    public var wordsKey: String { page.key }

    /// Every key `wordsKey` can be: every code's, and every tenant error's.
    public static var allWordsKeys: [String] {
        let tenantErrors = tenantErrorPages.keys.map { AuthError(.tenantError, $0) } + [AuthError(.tenantError)]
        let keys = (Code.allCases.map { AuthError($0) } + tenantErrors).map(\.wordsKey)
        return Array(Set(keys)).sorted()
    }

    /// The pages of the tenant's own errors at the callback (`error=` in the query); any other is
    /// "Login failed".
    private static let tenantErrorPages: [String: (status: Int, key: String)] = [
        "access_denied": (403, "error.login_cancelled"), "unauthorized": (403, "error.account_blocked"),
        "login_required": (401, "error.login_needed"), "consent_required": (401, "error.login_needed"),
        "interaction_required": (401, "error.login_needed"),
    ]

    private var page: (status: Int, key: String) {
        switch code {
        case .missingState, .unknownState:
            (400, "error.login_expired")
        case .tenantError:
            Self.tenantErrorPages[detail] ?? (400, "error.login_failed")
        case .missingCode, .codeExchangeFailed, .badTokenResponse, .userinfoFailed:
            (400, "error.login_not_accepted")
        case .tenantUnreachable, .jwksUnavailable:
            (503, "error.auth0_unreachable")
        case .tenantUnavailable:
            (503, "error.auth0_busy")
        case .refreshRefused:
            (401, "error.logged_out")
        case .stepUpNotMet:
            (403, "error.step_up_not_met")
        case .authorizationPushFailed:
            // The provider refused the request: waiting mends nothing (its trouble is `tenantUnavailable`).
            (502, "error.login_not_started")
        case .refreshFailed, .revocationFailed, .clientAssertionFailed, .requestObjectFailed:
            (503, "error.auth0_refused")
        case .malformedToken, .unsupportedAlgorithm, .unknownKey, .badSignature, .wrongIssuer, .wrongAudience,
            .wrongAuthorizedParty, .expired, .issuedInFuture, .nonceMismatch, .stateHashMismatch, .missingClaim,
            .notALogoutToken,
            .replayedLogoutToken, .userinfoWrongSubject, .wrongResponseIssuer, .missingResponseIssuer:
            (400, "error.login_not_verified")
        }
    }
}
