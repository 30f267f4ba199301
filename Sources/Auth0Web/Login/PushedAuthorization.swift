import Web

/// Pushed authorization requests (RFC 9126): the login's parameters go to the provider over the
/// back channel, with the client's credentials, and the browser carries only the reference the
/// provider gave for them. Nothing of the request (PKCE challenge, nonce, the person's language
/// or a session transfer token) is then in the browser's address bar or history, and the provider
/// knows the request came from this application before it shows a page.
public enum PushedAuthorization {
    /// The provider's answer: the reference the browser takes to the authorization endpoint,
    /// which works once and for `expiresIn` seconds.
    public struct Pushed: Sendable, Equatable {
        /// `request_uri`: the reference, `urn:ietf:params:oauth:request_uri:…` at Auth0.
        public let requestURI: String
        /// `expires_in`: seconds it stays usable (30 at Auth0).
        public let expiresIn: Int64

        /// The answer `requestURI`, usable for `expiresIn` seconds.
        public init(requestURI: String, expiresIn: Int64) {
            self.requestURI = requestURI
            self.expiresIn = expiresIn
        }
    }

    /// The endpoint logins push to with `mode` (`PUSHED_AUTHORIZATION_REQUESTS`: `auto` when the
    /// discovery document lists one) on the provider whose endpoints were discovered, or nil when
    /// they do not push.
    public static func endpoint(_ mode: Requirement, _ endpoints: TenantEndpoints) -> String? {
        mode == .off ? nil : endpoints.pushedAuthorization
    }

    /// `mode` on this provider, as start-up problems naming the setting.
    public static func problems(_ mode: Requirement, _ endpoints: TenantEndpoints) -> [String] {
        switch mode {
        case .required where endpoints.pushedAuthorization == nil:
            [
                "PUSHED_AUTHORIZATION_REQUESTS: required, but the provider's discovery document lists no "
                    + "pushed_authorization_request_endpoint (with Auth0: turn on Allow Pushed Authorization "
                    + "Requests in the tenant's advanced settings)"
            ]
        case .off where endpoints.requiresPushedAuthorization:
            ["PUSHED_AUTHORIZATION_REQUESTS: off, but the provider requires pushed authorization requests"]
        default:
            []
        }
    }

    /// Reads the push endpoint's answer (RFC 9126 §2.2: 201 with `request_uri` and `expires_in`).
    static func read(_ body: JSONValue?) -> Pushed? {
        guard let uri = body?["request_uri"]?.string, (1...2048).contains(uri.utf8.count),
            uri.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
            let seconds = body?["expires_in"]?.number, seconds.isFinite, seconds >= 1, seconds <= 86_400
        else { return nil }
        return Pushed(requestURI: uri, expiresIn: Int64(seconds))
    }
}
