import Web

/// Where a login starts, decided once for the provider: the authorization URL with the login's
/// parameters, or, with pushed authorization requests (RFC 9126), the parameters pushed to the
/// provider first over the back channel and the URL carrying only its reference. The routes ask
/// for the address; whether it pushes is this type's to know.
public struct LoginStart: Sendable {
    private let links: TenantLinks
    private let tokens: TokenClient

    /// Logins on the provider of `links`, pushing through `tokens` when it takes pushed requests.
    public init(links: TenantLinks, tokens: TokenClient) {
        self.links = links
        self.tokens = tokens
    }

    /// True when starting a login calls the provider (it waits for the answer).
    public var callsTheProvider: Bool { links.pushEndpoint != nil }

    /// The address the browser is sent to for `transaction`; throws `AuthError` when the
    /// provider refused the pushed request.
    public func location(
        for transaction: LoginTransaction, uiLocales: String? = nil, sessionTransferToken: String? = nil
    ) throws(AuthError) -> String {
        guard let pushEndpoint = links.pushEndpoint else {
            return links.authorize(transaction, uiLocales: uiLocales, sessionTransferToken: sessionTransferToken)
        }
        let parameters = links.authorizationParameters(
            transaction, uiLocales: uiLocales, sessionTransferToken: sessionTransferToken)
        return links.authorize(pushed: try tokens.push(parameters, to: pushEndpoint))
    }
}
