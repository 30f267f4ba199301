import Auth0Web
import Web

extension Routes {
    /// The logged-in page of `session`, with the mini apps its person may open.
    func profilePage(
        _ session: Session, _ context: RequestContext, typed: String? = nil, saveError: Words? = nil,
        flash: Flash? = nil, status: Int = 200
    ) -> Response {
        context.pages.profile(
            session, metadataOffered: services.auth0.metadata.isOffered, miniApps: miniAppLinks(for: session, context),
            typed: typed, saveError: saveError, flash: flash, status: status)
    }

    /// The mini apps `session`'s person may open, in the file's order, each by its title in the
    /// page's language. Judged from what the session holds and, for a rule only a token settles, the
    /// token this worker remembers: no call to the provider or the store. An app whose rules keep
    /// the person out is not offered (a door shown only to be refused); one that will ask them to
    /// log in again with a second factor says so.
    func miniAppLinks(for session: Session, _ context: RequestContext) -> [MiniAppLink] {
        guard !services.miniApps.apps.isEmpty else { return [] }
        let now = Int64(services.clock.now())
        var links: [MiniAppLink] = []
        links.reserveCapacity(services.miniApps.apps.count)
        for app in services.miniApps.apps {
            let token = app.api.flatMap { api in
                app.hasTokenRules
                    ? services.apiTokens.remembered(for: session, audience: api.audience, scopes: api.scopes) : nil
            }
            let asksFirst: MiniAppLink.Step?
            switch app.admission(for: session, token: token, now: now) {
            case .refused: continue
            case .needsAuthentication: asksFirst = app.asksSecondFactor ? .secondFactor : .loginAgain
            case .admitted: asksFirst = nil
            }
            links.append(app.link(in: context.language, asking: asksFirst))
        }
        return links
    }
}

/// A mini app as the logged-in page offers it. Each app makes its few once (`MiniApp.link`), so a
/// page view lists them without making their items again.
public struct MiniAppLink: Sendable, Equatable {
    /// Its title in the page's language.
    public let title: String
    /// Where it is served.
    public let path: String
    /// What opening it will ask of the person first, if anything.
    public let asksFirst: Step?
    /// Its item in the page's list (`Pages.miniAppItem`).
    let listItem: TemplateContext

    /// The link to the app at `path` called `title`, which will ask `asksFirst` first.
    public init(title: String, path: String, asksFirst: Step?) {
        self.title = title
        self.path = path
        self.asksFirst = asksFirst
        listItem = Pages.miniAppItem(title: title, path: path, asksFirst: asksFirst)
    }

    /// Alike when they name one app, title and step (the item follows from them).
    public static func == (left: MiniAppLink, right: MiniAppLink) -> Bool {
        left.title == right.title && left.path == right.path && left.asksFirst == right.asksFirst
    }

    /// A step before an app opens.
    public enum Step: Sendable, Equatable {
        /// Logging in again with a second factor.
        case secondFactor
        /// Logging in again (the app wants a recent login).
        case loginAgain
    }
}
