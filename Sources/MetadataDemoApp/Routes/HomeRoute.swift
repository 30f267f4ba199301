import Auth0Web
import Web

extension Routes {
    /// `GET /`: the profile when logged in, else the first screen ("logged out" when the session
    /// stage has just ended the session). The metadata shown is what the session holds.
    func home(_ request: Request, _ context: inout SessionContext) -> Response {
        guard context.isLoggedIn() else {
            return pages(request, cookies: context.cookies).welcome(
                titleKey: context.endedHere ? "page.logged_out.title" : "page.welcome.title")
        }
        let flash = context.takeFlash()
        let pages = pages(request, cookies: context.cookies)
        let offered = services.metadata.isOffered
        return context.withSession { pages.profile($0, metadataOffered: offered, flash: flash) }!
    }
}
