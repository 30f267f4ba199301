import Auth0Web
import Web

extension Routes {
    /// `GET /`: the profile when logged in, else the first screen ("logged out" when the session
    /// stage has just ended the session). The metadata shown is what the session holds.
    func home(_ context: RequestContext) -> Response {
        guard let session = context.session else {
            return context.pages.welcome(
                titleKey: context.endedSessionHere ? "page.logged_out.title" : "page.welcome.title")
        }
        return profilePage(session, context, flash: context.takeFlash())
    }
}
