import Auth0Web
import Web

extension Routes {
    /// `GET /`: the profile when logged in, else the first screen. Never calls Auth0: the
    /// metadata shown is what the session holds.
    func home(_ request: Request) throws -> Response {
        let loaded = services.sessions.load(from: request.cookies)
        guard var session = loaded.session else {
            var response = pages.welcome(title: "Metadata demo")
            // A tampered, expired or foreign cookie is forgotten, not trusted and not fatal.
            if !loaded.sentNames.isEmpty { clearSession(loaded, in: &response) }
            return response
        }
        var response = pages.profile(session)
        if session.flash != nil {
            session.flash = nil  // shown once
            try store(session, replacing: loaded, in: &response)
        } else if services.sessions.needsTouch(loaded) {
            try store(session, replacing: loaded, in: &response)  // extends the rolling lifetime
        }
        return response
    }
}
