import Auth0Web
import Web

extension Routes {
    /// True when the browser says the request comes from this site: `Origin` matches the base
    /// URL's origin and `Sec-Fetch-Site`, when sent, is `same-origin`. A POST with neither
    /// header is refused (every current browser sends `Origin` on a form POST).
    func isSameOrigin(_ request: Request) -> Bool {
        if let site = request.header("sec-fetch-site"), site != "same-origin" { return false }
        if let origin = request.header("origin") { return origin == services.settings.baseOrigin }
        return request.header("sec-fetch-site") != nil
    }

    /// Checks origin and the session's CSRF token on a POST; throws `ForgedRequest` otherwise.
    func checkForm(_ form: FormData, _ context: RequestContext) throws {
        guard isSameOrigin(context.request), context.isValidCSRFToken(form["csrf"]) else { throw ForgedRequest() }
    }
}

extension RelyingPartySettings {
    /// `scheme://host[:port]` of the base URL, as browsers send it in `Origin`.
    var baseOrigin: String { URLOrigin.of(baseURL) ?? baseURL }
}
