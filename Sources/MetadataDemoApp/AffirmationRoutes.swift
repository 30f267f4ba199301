import Auth0Web
import Foundation
import Web

/// The session can no longer call Auth0 (its refresh token was refused or is missing).
struct SessionEnded: Error {}

extension Routes {
    /// `POST /affirmation` with `action=save` or `action=refresh`. Success redirects to `/` with
    /// a short confirmation; failure shows the page again with exactly what was typed.
    func affirmation(_ request: Request) throws -> Response {
        let form = try request.formBody()
        let typed = form["affirmation"] ?? ""
        let saving = form["action"] != "refresh"
        let text = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        let loaded = services.sessions.load(from: request.cookies, includingAccessToken: true)
        guard var session = loaded.session else {
            // The session expired while the page was open: log in again, then finish the save.
            guard isSameOrigin(request) else { throw ForgedRequest() }
            let pending = saving && text.count <= Pages.affirmationLimit ? text : nil
            var response = try beginLogin(request, returnTo: "/", pendingAffirmation: pending, status: 303)
            clearSession(loaded, in: &response)
            return response
        }
        try checkForm(form, request: request, session: session)
        if saving && text.count > Pages.affirmationLimit {
            return pages.profile(
                session, typed: typed,
                saveError: "Your affirmation is too long: at most \(Pages.affirmationLimit) characters.", status: 400)
        }
        var response: Response
        do {
            if saving {
                session.metadata = try saveAffirmation(text, session: &session)
                session.flash = "Affirmation saved."
            } else {
                session.metadata = try fetchMetadata(&session)
                session.flash = "Affirmation refreshed."
            }
            response = .redirect(to: "/", status: 303)
        } catch let error as ManagementError {
            log(.warning, "management call failed", ["id": request.requestID, "error": "\(error)"])
            if error.kind == .unauthorized {
                return try restartLogin(request, loaded: loaded, pending: saving ? text : nil)
            }
            response = pages.profile(
                session, typed: typed, saveError: error.publicMessage, status: Routes.status(for: error))
        } catch is SessionEnded {
            return try restartLogin(request, loaded: loaded, pending: saving ? text : nil)
        }
        try store(session, replacing: loaded, in: &response)  // tokens may have been renewed
        return response
    }

    /// Reads the metadata with a fresh access token.
    func fetchMetadata(_ session: inout Session) throws -> MetadataSnapshot {
        let (user, accessToken) = (session.profile.sub, try freshAccessToken(&session))
        let document = try counted { try services.management.readMetadata(userID: user, accessToken: accessToken) }
        return snapshot(document, user: user)
    }

    /// Saves the affirmation with a fresh access token; returns the metadata as saved.
    func saveAffirmation(_ text: String, session: inout Session) throws -> MetadataSnapshot {
        let (user, accessToken) = (session.profile.sub, try freshAccessToken(&session))
        let document = try counted {
            try services.management.saveAffirmation(text, userID: user, accessToken: accessToken)
        }
        return snapshot(document, user: user)
    }

    /// The session's access token, renewed first when it expires within a minute or the browser
    /// did not send it; the rotated refresh token is kept. A refused refresh token ends the session.
    func freshAccessToken(_ session: inout Session) throws -> String {
        let now = Int64(services.clock.now())
        if let token = session.accessToken, token.expiresAt - now >= 60 { return token.value }
        guard let refreshToken = session.refreshToken else { throw SessionEnded() }
        let tokens: TokenSet
        do {
            tokens = try services.renewer.renew(refreshToken: refreshToken)
        } catch let error as AuthError where error.code == .tenantUnreachable {
            throw ManagementError(.unreachable)
        } catch {
            throw SessionEnded()
        }
        services.metrics.renewed()
        session.accessToken = AccessToken(
            value: tokens.accessToken, expiresAt: Int64(services.clock.now()) + tokens.expiresIn)
        if let rotated = tokens.refreshToken { session.refreshToken = rotated }
        return tokens.accessToken
    }

    /// Runs a Management API call and counts its outcome.
    private func counted(_ call: () throws -> UserMetadataDocument) throws -> UserMetadataDocument {
        do {
            let document = try call()
            services.metrics.managementCall(outcome: "200")
            return document
        } catch let error as ManagementError {
            services.metrics.managementCall(outcome: error.status > 0 ? String(error.status) : error.kind.rawValue)
            throw error
        }
    }

    private func snapshot(_ document: UserMetadataDocument, user: String) -> MetadataSnapshot {
        MetadataSnapshot(document: document) { _ in
            log(.warning, "announcement_url refused: not an absolute http(s) URL", ["user": user])
        }
    }

    private func restartLogin(_ request: Request, loaded: SessionCookies.Loaded, pending: String?) throws -> Response {
        var response = try beginLogin(request, returnTo: "/", pendingAffirmation: pending, status: 303)
        clearSession(loaded, in: &response)
        return response
    }

    static func status(for error: ManagementError) -> Int {
        switch error.kind {
        case .rateLimited: 429
        case .badRequest: 400
        case .forbidden: 403
        case .notFound: 404
        default: 503
        }
    }
}
