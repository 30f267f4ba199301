import Web

/// How this application proves itself, as one value: the method chosen for the provider
/// (`ClientAuthentication.chosen`) with what it proves with, a secret or the key that signs its
/// assertions. The token, revocation and pushed-request endpoints all take it the same way.
public enum ClientCredentials: Sendable {
    /// `client_secret_basic`: the id and secret in `Authorization: Basic`.
    case basic(clientID: String, secret: String)
    /// `client_secret_post`: the id and secret in the body.
    case post(clientID: String, secret: String)
    /// `private_key_jwt`: a JWT signed with the application's key in the body.
    case privateKeyJWT(clientID: String, assertion: ClientAssertion)

    /// The credentials of `settings` for the provider at `endpoints`, assertions signed at the
    /// time `clock` says; `private_key_jwt` without a key to sign with is refused here, once.
    public init(settings: RelyingPartySettings, endpoints: TenantEndpoints, clock: Clock) throws(AuthError) {
        let client = settings.client
        switch ClientAuthentication.chosen(settings: settings, endpoints: endpoints) {
        case .basic: self = .basic(clientID: client.id, secret: client.secret)
        case .post: self = .post(clientID: client.id, secret: client.secret)
        case .privateKeyJWT:
            guard let key = client.assertionKeys.first else {
                throw AuthError(.clientAssertionFailed, "no CLIENT_ASSERTION_KEY")
            }
            let signer = ClientSigner(
                key: key, algorithm: client.assertionAlgorithm, type: "JWT",
                namesKey: settings.provider.dialect.namesTheAssertionsKey,
                certificate: client.assertionCertificates.first ?? nil)
            self = .privateKeyJWT(
                clientID: client.id, assertion: ClientAssertion(signer: signer, clientID: client.id, clock: clock))
        }
    }

    /// The method, as providers name it.
    public var method: ClientAuthentication {
        switch self {
        case .basic: .basic
        case .post: .post
        case .privateKeyJWT: .privateKeyJWT
        }
    }

    /// `form` and the headers of a request to one of the provider's endpoints with the
    /// credentials added (an assertion made for `audience`). The body names `client_id` once:
    /// RFC 6749 §3.2 says a parameter MUST NOT be sent more than once (a pushed request carries
    /// the authorization request's own), and a strict provider refuses a request that repeats it.
    func authenticate(_ form: [(String, String)], audience: String) throws -> (
        form: [(String, String)], headers: [(name: String, value: String)]
    ) {
        let rest = form.filter { $0.0 != "client_id" }
        switch self {
        case .privateKeyJWT(let clientID, let assertion):
            let proof = [
                ("client_id", clientID), ("client_assertion_type", ClientAssertion.type),
                ("client_assertion", try assertion.make(audience: audience)),
            ]
            return (proof + rest, [])
        case .post(let clientID, let secret):
            return ([("client_id", clientID), ("client_secret", secret)] + rest, [])
        case .basic(let clientID, let secret):
            // RFC 6749 §2.3.1: each is form-encoded before the two are joined and base64-encoded.
            let pair = PercentEncoding.encode(clientID) + ":" + PercentEncoding.encode(secret)
            return (form, [("Authorization", "Basic " + Base64URL.encodeStandard(Array(pair.utf8)))])
        }
    }
}
