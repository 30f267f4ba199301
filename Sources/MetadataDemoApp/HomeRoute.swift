import Auth0Web
import Web

extension Routes {
    /// `GET /`: the profile when logged in, else the first screen. Never calls Auth0: the
    /// metadata shown is what the session holds.
    func home(_ context: inout SessionContext) -> Response {
        guard context.isLoggedIn() else { return pages.welcome(title: "Metadata demo") }
        return pages.profile(context.session!, flash: context.takeFlash())  // borrowed, not copied
    }
}
