import Web

/// Where a login starts, decided once for the provider: the authorization URL with the login's
/// parameters, or, with pushed authorization requests (RFC 9126), the parameters pushed to the
/// provider first over the back channel and the URL carrying only its reference; with request
/// objects (RFC 9101), the parameters signed into one, pushed or in the URL. The routes ask for
/// the address; whether it pushes or signs is this type's to know.
public struct LoginStart: Sendable {
    private let links: TenantLinks
    private let tokens: TokenClient
    private let requestObject: RequestObject?

    /// Logins on the provider of `links`, pushing through `tokens` when it takes pushed requests,
    /// each request signed into a `requestObject` when there is one.
    public init(links: TenantLinks, tokens: TokenClient, requestObject: RequestObject? = nil) {
        self.links = links
        self.tokens = tokens
        self.requestObject = requestObject
    }

    /// True when starting a login calls the provider (it waits for the answer).
    public var callsTheProvider: Bool { links.pushEndpoint != nil }

    /// The address the browser is sent to for `transaction`; throws `AuthError` when the
    /// provider refused the pushed request.
    public func location(
        for transaction: LoginTransaction, uiLocales: String? = nil, sessionTransferToken: String? = nil
    ) throws(AuthError) -> String {
        var parameters = links.authorizationParameters(
            transaction, uiLocales: uiLocales, sessionTransferToken: sessionTransferToken)
        if let requestObject {
            // RFC 9101 §5: the client_id beside the object; the rest only inside it.
            parameters = [("client_id", links.clientID), ("request", try requestObject.sign(parameters))]
        }
        guard let pushEndpoint = links.pushEndpoint else { return links.authorize(parameters) }
        return links.authorize(pushed: try tokens.push(parameters, to: pushEndpoint))
    }
}
