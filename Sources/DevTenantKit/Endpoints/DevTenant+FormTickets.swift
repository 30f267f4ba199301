import OpenSSLCrypto
import Web

/// The tenant's own forms carry a ticket: sealed data for the form, bound to a cookie set when
/// the form was shown, used once. A form posted from another site lacks the cookie (and its
/// `Origin` is refused anyway); a ticket cannot log in twice or two people.
extension DevTenant {
    /// How long a form may stay open.
    static let ticketLifetime: Double = 1800

    /// A ticket carrying `payload` for a form of `purpose`, and the cookie that binds it to this browser.
    func issueTicket(_ payload: JSONValue, purpose: String) throws -> (ticket: String, cookie: SetCookie) {
        let id = Base64URL.encode(SecureRandom.bytes(16))
        let expiresAt = now() + DevTenant.ticketLifetime
        let ticket = try sealer.seal(
            .object(["id": .string(id), "v": payload]), purpose: purpose, expiresAt: expiresAt)
        var cookie = SetCookie(
            name: DevTenant.ticketCookiePrefix + id, value: "1", maxAge: Int(DevTenant.ticketLifetime),
            secure: config.secureCookies)
        cookie.sameSite = .strict
        return (ticket, cookie)
    }

    /// The payload of a ticket posted with its cookie, without using it up (a wrong password
    /// shows the form again with the same ticket).
    func readTicket(_ ticket: String?, purpose: String, request: Request) -> (id: String, payload: JSONValue)? {
        guard let ticket, let sealed = sealer.open(ticket, purpose: purpose, now: now()),
            let id = sealed["id"]?.string, let payload = sealed["v"],
            request.cookies[DevTenant.ticketCookiePrefix + id] != nil
        else { return nil }
        return (id, payload)
    }

    /// Uses a ticket up; false when it was used before.
    func useTicket(_ id: String) -> Bool {
        guardian.use(ticket: id, expiresAt: now() + DevTenant.ticketLifetime, now: now())
    }

    /// The cookie that forgets a used ticket.
    func clearTicket(_ id: String) -> SetCookie {
        .expired(DevTenant.ticketCookiePrefix + id, secure: config.secureCookies)
    }

    static let ticketCookiePrefix = "devtenant_form."

    /// True unless the browser says the form came from another site: a wrong `Origin`, or
    /// `Sec-Fetch-Site` other than same-origin. (Scripts that send neither are let through;
    /// every current browser sends `Origin` on a form POST.)
    func isSameOrigin(_ request: Request) -> Bool {
        if let site = request.header("sec-fetch-site"), site != "same-origin" { return false }
        if let origin = request.header("origin") { return origin + "/" == config.issuer }
        return true
    }

    /// The form of a POST sent from one of the tenant's own pages; nil for one from another site
    /// (answer it with `notOwnForm()`), refused before anything is read.
    func ownForm(_ request: Request) throws -> FormData? {
        guard isSameOrigin(request) else { return nil }
        return try request.formBody()
    }

    /// The answer to a form posted from another site.
    func notOwnForm() -> Response {
        message(403, "Not allowed", "This form was not sent from the tenant's own page.")
    }

    /// The answer to a form whose ticket is gone (used, expired, or from another browser).
    func pageExpired() -> Response {
        message(400, "Login expired", "This page has expired. Go back to the application and log in again.")
    }
}
