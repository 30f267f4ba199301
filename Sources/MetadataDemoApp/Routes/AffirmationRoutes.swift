import Auth0Web
import Web

extension Routes {
    /// `POST /affirmation` with `action=save` or `action=refresh`. Success redirects to `/` with
    /// a short confirmation; failure shows the page again with exactly what was typed. A session
    /// that has ended (or expired while the page was open) logs in again and then finishes the save.
    func affirmation(_ context: RequestContext) throws -> Response {
        let form = try context.request.formBody()
        let typed = form["affirmation"] ?? ""
        let saving = form["action"] != "refresh"
        let text = typed.trimmingWhitespace()
        let pending = saving && text.count <= Pages.affirmationLimit ? text : nil
        guard let session = context.session else {
            guard isSameOrigin(context.request) else { throw ForgedRequest() }
            return try logInAgain(context, pending: pending)
        }
        try checkForm(form, context)
        if saving && text.count > Pages.affirmationLimit {
            return profilePage(
                session, context, typed: typed,
                saveError: Words("save.too_long", ["limit": String(Pages.affirmationLimit)]), status: 400)
        }
        do {
            try context.updateSession { session in
                if saving {
                    try services.auth0.metadata.save(text, in: &session)
                } else {
                    try services.auth0.metadata.refresh(&session)
                }
            }
            context.setFlash(saving ? .saved : .refreshed)
            return .redirect(to: "/", status: 303)
        } catch let error as SessionEnded {
            context.log(.info, "session ended", ["reason": error.reason])
            services.endEndedByTenant(context)
            return try logInAgain(context, pending: pending)
        } catch let error as any HTTPResponseError {
            // The tenant's trouble: the person stays logged in and sees why, with their text.
            context.log(.warning, "affirmation call failed", ["error": "\(error)"])
            return profilePage(
                context.session ?? session, context, typed: typed, saveError: Words(error), status: error.status)
        }
    }

    /// Ends the session and sends the browser to log in, carrying the text to save afterwards.
    private func logInAgain(_ context: RequestContext, pending: String?) throws -> Response {
        context.endSession()
        return try beginLogin(context, returnTo: "/", pendingAffirmation: pending, status: 303)
    }
}
