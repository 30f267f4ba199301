import OpenSSLCrypto
import Web

/// Sends OpenID Connect Back-Channel Logout tokens, as Auth0 does: a form POST with one field,
/// `logout_token`, to each back-channel logout URL of the applications, with a 5-second limit
/// and no retry. Auth0 sends them in the background; the dev tenant sends them before it
/// answers, so a test that sees the logout redirect knows the applications were told.
extension DevTenant {
    /// Tells every application with a back-channel logout URL that the tenant session `sid` of
    /// `sub` ended, or (no `sid`) that every session of `sub` did.
    func sendLogoutTokens(sid: String?, sub: String) {
        guard let http else { return }
        for client in directory.clients {
            for url in client.backchannelLogoutURLs {
                let issuedAt = now().rounded(.down)
                var claims: [String: JSONValue] = [
                    "iss": .string(config.issuer), "aud": .string(client.clientID), "sub": .string(sub),
                    "iat": .number(issuedAt), "exp": .number(issuedAt + 120),
                    "jti": .string(Base64URL.encode(SecureRandom.bytes(16))),
                    "events": .object([DevTenant.backchannelEvent: .object([:])]),
                ]
                if let sid { claims["sid"] = .string(sid) }
                do {
                    let token = try signer.sign(claims)
                    let answer = try http.send(
                        HTTPClientRequest(
                            method: "POST", url: url,
                            headers: [("Content-Type", "application/x-www-form-urlencoded")],
                            body: Array(PercentEncoding.formEncode([("logout_token", token)]).utf8), timeoutSeconds: 5))
                    log(
                        answer.status == 200 ? .info : .warning, "back-channel logout sent",
                        ["client": client.clientID, "status": String(answer.status)])
                } catch {
                    log(.warning, "back-channel logout failed", ["client": client.clientID, "error": "\(error)"])
                }
            }
        }
    }

    static let backchannelEvent = "http://schemas.openid.net/event/backchannel-logout"
}
