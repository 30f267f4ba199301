import Auth0Web
import Web

/// Renders the product's screens from the templates loaded at start-up.
public struct Pages: Sendable {
    private let welcome: Template
    private let problem: Template
    private let profile: Template
    private let confirmLogout: Template
    /// The longest affirmation accepted, in characters.
    public static let affirmationLimit = 500

    /// Fingerprinted paths of the stylesheet and images, shared by every page.
    private let assets: TemplateContext

    /// Looks up every template the product uses, so a missing one stops start-up.
    public init(library: TemplateLibrary, assets: StaticAssets = StaticAssets()) throws {
        self.assets = [
            "stylesheet": .text(assets.path("app.css")), "favicon": .text(assets.path("favicon.svg")),
            "placeholder": .text(assets.path("avatar-placeholder.svg")),
        ]
        welcome = try library.template("welcome")
        problem = try library.template("problem")
        profile = try library.template("profile")
        confirmLogout = try library.template("confirm-logout")
    }

    /// `You're logged in!`: picture, name, email, the affirmation form, the announcement and
    /// `Log out`. `typed` replaces the saved affirmation in the field (after a failed save);
    /// `flash` is a one-time confirmation ("Affirmation saved.").
    public func profile(
        _ session: Session, typed: String? = nil, saveError: String? = nil, flash: String? = nil, status: Int = 200
    ) -> Response {
        let picture = session.profile.picture
        var context: TemplateContext = [
            "title": "You\u{2019}re logged in!",
            "name": .text(session.profile.name),
            "email": .text(session.profile.email),
            // Checked once at login (see LoginRoutes): empty means none or not a safe link.
            "picture": picture.isEmpty ? assets["placeholder"]! : .text(picture),
            "csrf": .text(session.csrfToken),
            "affirmation": .text(typed ?? session.metadata.affirmation),
            "affirmationLimit": .text(String(Pages.affirmationLimit)),
        ]
        if let flash { context["flash"] = .text(flash) }
        if let saveError { context["saveError"] = .text(saveError) }
        if let announcement = session.metadata.announcement {
            context["announcementURL"] = .text(announcement.url)
            context["announcementText"] = .text(announcement.text)
        }
        return .html(profile.render(context, shared: assets), status: status)
    }

    /// Asks before logging out (a GET must never log anyone out).
    public func confirmLogout(_ session: Session) -> Response {
        let context: TemplateContext = [
            "title": "Log out?", "email": .text(session.profile.email), "csrf": .text(session.csrfToken),
        ]
        return .html(confirmLogout.render(context, shared: assets))
    }

    /// The first screen (`Metadata demo`) or the one after logging out (`You're logged out.`).
    public func welcome(title: String, message: String? = nil, loginHref: String = "/login") -> Response {
        var context: TemplateContext = ["title": .text(title), "loginHref": .text(loginHref)]
        if let message { context["message"] = .text(message) }
        return .html(welcome.render(context, shared: assets))
    }

    /// A page that explains what went wrong, with a way on.
    public func problem(status: Int, title: String, message: String, offerLogin: Bool = false) -> Response {
        let context: TemplateContext = [
            "title": .text(title), "message": .text(message), "showLogin": .flag(offerLogin),
        ]
        return .html(problem.render(context, shared: assets), status: status)
    }
}
