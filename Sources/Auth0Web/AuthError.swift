import Web

/// Why a login or a token call failed, with a stable code for logs and pages. Descriptions never
/// hold tokens, codes or cookies.
public struct AuthError: Error, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        // The callback
        case missingState = "missing_state"
        case unknownState = "unknown_state"
        case tenantError = "tenant_error"
        case missingCode = "missing_code"
        // Token endpoint
        case codeExchangeFailed = "code_exchange_failed"
        case refreshFailed = "refresh_failed"
        case tenantUnreachable = "tenant_unreachable"
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
        case missingClaim = "missing_claim"
        case jwksUnavailable = "jwks_unavailable"
    }

    public let code: Code
    /// Safe detail for the log (an OAuth error name, a status, a claim name).
    public let detail: String

    public init(_ code: Code, _ detail: String = "") {
        self.code = code
        self.detail = detail
    }

    public var description: String { detail.isEmpty ? code.rawValue : "\(code.rawValue): \(detail)" }
}
