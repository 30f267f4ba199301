import Auth0Web
import Foundation
import Web

extension Routes {
    /// `POST /affirmation` with `action=save` or `action=refresh`. Success redirects to `/` with
    /// a short confirmation; failure shows the page again with exactly what was typed. A session
    /// that has ended (or expired while the page was open) logs in again and then finishes the save.
    func affirmation(_ request: Request, _ context: inout SessionContext) throws -> Response {
        let form = try request.formBody()
        let typed = form["affirmation"] ?? ""
        let saving = form["action"] != "refresh"
        let text = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        let pending = saving && text.count <= Pages.affirmationLimit ? text : nil
        guard let session = context.session else {
            guard isSameOrigin(request) else { throw ForgedRequest() }
            return try logInAgain(&context, pending: pending)
        }
        try checkForm(form, request: request, context: &context)
        if saving && text.count > Pages.affirmationLimit {
            return pages(request, cookies: context.cookies).profile(
                session, metadataOffered: services.metadata.isOffered, typed: typed,
                saveError: Words("save.too_long", ["limit": String(Pages.affirmationLimit)]), status: 400)
        }
        do {
            try context.update { session in
                if saving {
                    try services.metadata.save(text, in: &session)
                } else {
                    try services.metadata.refresh(&session)
                }
            }
            context.setFlash((saving ? Flash.saved : .refreshed).stored)
            return .redirect(to: "/", status: 303)
        } catch let error as SessionEnded {
            log(.info, "session ended", ["id": request.requestID, "reason": error.reason])
            services.endEndedByTenant(&context)
            return try logInAgain(&context, pending: pending)
        } catch let error as any HTTPResponseError {
            // The tenant's trouble: the person stays logged in and sees why, with their text.
            log(.warning, "affirmation call failed", ["id": request.requestID, "error": "\(error)"])
            return pages(request, cookies: context.cookies).profile(
                context.session ?? session, metadataOffered: services.metadata.isOffered, typed: typed,
                saveError: Words(error), status: error.status)
        }
    }

    /// Ends the session and sends the browser to log in, carrying the text to save afterwards.
    private func logInAgain(_ context: inout SessionContext, pending: String?) throws -> Response {
        context.end()
        return try beginLogin(context.cookies, returnTo: "/", pendingAffirmation: pending, status: 303)
    }
}
