import Auth0Web
import Web

/// Each mini app's door: nginx asks `/auth/check/NAME` before every request to the app, and
/// shows `/auth/refused/NAME` when the answer is no.
extension Routes {
    /// `GET /auth/check/NAME`, for nginx `auth_request` in the app's location: 401 with the login
    /// link for a visitor, 403 (and a log line naming the rule) for a person the app's rules keep
    /// out, else 204 with who they are and an identity assertion for this app's audience alone.
    func miniAppCheck(_ app: MiniApp, _ context: RequestContext) -> Response {
        guard let session = context.session else { return Routes.loginNeeded(context) }
        if let rule = app.firstUnmetRule(for: session) {
            context.log(.info, "mini_app_refused", ["app": app.name, "rule": rule.name])
            return Response(status: 403)
        }
        let assertion = try? services.assertions?.assertion(for: session, audience: app.assertionAudience)
        return Routes.admitted(session, assertion: assertion)
    }

    /// `GET /auth/refused/NAME`: the page nginx shows for the check's 403, in the person's
    /// language, saying what is missing and nothing more (not the domains or roles that would let
    /// them in). Asked again after the rules changed (or by hand), it sends a visitor to log in
    /// and a person now let in to the app.
    func miniAppRefused(_ app: MiniApp, _ context: RequestContext) -> Response {
        guard let session = context.session else {
            return Response.redirect(to: "/login?" + PercentEncoding.formEncode([("returnTo", app.path)]), status: 303)
        }
        guard let rule = app.firstUnmetRule(for: session) else { return Response.redirect(to: app.path, status: 303) }
        return context.pages.problem(
            status: 403, key: rule.wordsKey, arguments: ["app": app.titles[context.language] ?? app.name])
    }
}
