import Auth0Web
import Web

extension Routes {
    /// The logged-in page of `session`, with the mini apps its person may open.
    func profilePage(
        _ session: Session, _ context: RequestContext, typed: String? = nil, saveError: Words? = nil,
        flash: Flash? = nil, status: Int = 200
    ) -> Response {
        context.pages.profile(
            session, metadataOffered: services.auth0.metadata.isOffered,
            miniAppItems: miniAppItems(for: session, context),
            typed: typed, saveError: saveError, flash: flash, status: status)
    }

    /// The list items of the mini apps `session`'s person may open, in the file's order, each by its
    /// title in the page's language (rendered at start-up: `MiniAppList`). Judged from what the
    /// session holds and, for a rule only a token settles, the token this worker remembers: no call
    /// to the provider or the store. An app whose rules keep the person out is not offered (a door
    /// shown only to be refused); one that will ask them to log in again with a second factor says so.
    func miniAppItems(for session: Session, _ context: RequestContext) -> [[UInt8]] {
        guard !services.miniApps.apps.isEmpty else { return [] }
        let now = Int64(services.clock.now())
        var items: [[UInt8]] = []
        items.reserveCapacity(services.miniApps.apps.count)
        for (index, app) in services.miniApps.apps.enumerated() {
            let token = app.api.flatMap { api in
                app.hasTokenRules
                    ? services.apiTokens.remembered(for: session, audience: api.audience, scopes: api.scopes) : nil
            }
            let asksFirst: MiniAppStep
            switch app.admission(for: session, token: token, now: now) {
            case .refused: continue
            case .needsAuthentication: asksFirst = app.asksSecondFactor ? .secondFactor : .loginAgain
            case .admitted: asksFirst = .nothing
            }
            items.append(miniAppList.item(index, in: context.language, asking: asksFirst))
        }
        return items
    }
}
