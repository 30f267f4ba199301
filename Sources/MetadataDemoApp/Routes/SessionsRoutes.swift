import Auth0Web
import Web

/// "Your sessions": the list, and ending one or every other session. Each end is recorded in
/// the ledger, so every worker and host refuses that session within a second.
extension Routes {
    /// `GET /sessions`: the person's open sessions (a logged-out visitor is sent to log in and
    /// comes back here).
    func sessions(_ context: RequestContext) throws -> Response {
        guard let session = context.session else { return try beginLogin(context, returnTo: "/sessions") }
        let flash = context.takeFlash()
        let now = Int64(services.clock.now())
        do {
            let entries = try services.registry.sessions(of: session.profile.sub)
            return context.pages.sessions(session, entries: entries, now: now, flash: flash)
        } catch {
            context.log(.warning, "sessions list unavailable", ["error": "\(error)"])
            return context.pages.sessions(session, entries: nil, now: now, flash: flash)
        }
    }

    /// `POST /sessions/end`: ends one other session of this person, named by its public id. An
    /// id that is not one of this person's open sessions ends nothing: nobody ends another's.
    func endSession(_ context: RequestContext) throws -> Response {
        guard let session = context.session else { return .redirect(to: "/", status: 303) }
        let form = try context.request.formBody()
        try checkForm(form, context)
        let id = form["session"] ?? ""
        let sub = session.profile.sub
        guard id != session.publicID,
            let entry = try services.registry.sessions(of: sub).first(where: { $0.id == id })
        else {
            context.setFlash(.sessionGone)
            return .redirect(to: "/sessions", status: 303)
        }
        services.ledger.endSession(publicID: id, startedAt: entry.startedAt)
        try? services.registry.remove(id, of: sub)  // the ledger has ended it; the list catches up
        context.log(.info, "session ended from another", ["user": sub])
        context.setFlash(.sessionEnded(entry.device))
        return .redirect(to: "/sessions", status: 303)
    }

    /// `POST /sessions/end-others`: ends every session of this person but this one, listed or
    /// not (the ledger ends them by person and time, keeping this one); once a minute per
    /// session at most (see `SessionLedger.endOthersSeconds`).
    func endOtherSessions(_ context: RequestContext) throws -> Response {
        guard let session = context.session else { return .redirect(to: "/", status: 303) }
        try checkForm(try context.request.formBody(), context)
        let sub = session.profile.sub
        guard services.ledger.endSessions(of: sub, except: session) else {
            context.log(.info, "sessions ended everywhere else: too soon again", ["user": sub])
            context.setFlash(.othersEndedRecently)
            return .redirect(to: "/sessions", status: 303)
        }
        if let others = try? services.registry.sessions(of: sub) {
            for other in others where other.id != session.publicID { try? services.registry.remove(other.id, of: sub) }
        }
        context.log(.info, "sessions ended everywhere else", ["user": sub])
        context.setFlash(.othersEnded)
        return .redirect(to: "/sessions", status: 303)
    }
}
