import Web

extension Auth0Settings {
    /// The `/authorize` URL that starts Universal Login for a transaction.
    public func authorizeURL(for transaction: LoginTransaction) -> String {
        issuer + "authorize?"
            + PercentEncoding.formEncode([
                ("response_type", "code"), ("client_id", clientID), ("redirect_uri", callbackURL), ("scope", scope),
                ("audience", audience), ("state", transaction.state), ("nonce", transaction.nonce),
                ("code_challenge", PKCE.challenge(for: transaction.codeVerifier)), ("code_challenge_method", "S256"),
            ])
    }

    /// Where to send the browser to end the tenant's session too.
    public func logoutURL(tenantSessionID: String?) -> String {
        switch logoutMode {
        case .v2:
            return issuer + "v2/logout?"
                + PercentEncoding.formEncode([("client_id", clientID), ("returnTo", loggedOutURL)])
        case .oidc:
            var pairs = [("client_id", clientID), ("post_logout_redirect_uri", loggedOutURL)]
            if let tenantSessionID { pairs.append(("logout_hint", tenantSessionID)) }
            return issuer + "oidc/logout?" + PercentEncoding.formEncode(pairs)
        }
    }
}
