import Auth0Web
import Web

/// Renders the product's screens from the templates loaded at start-up.
public final class Pages: Sendable {
    private let welcome: Template
    private let problem: Template
    private let profile: Template
    private let confirmLogout: Template
    /// The body of `profile`'s `miniApps` section: one app's item in the list, rendered once per
    /// app, step and language at start-up (`MiniAppList`).
    private let miniAppItem: Template
    let sessionsPage: Template
    /// The longest affirmation accepted, in characters.
    public static let affirmationLimit = 500

    /// Fingerprinted paths of the stylesheet and images, shared by every page.
    let assets: TemplateContext
    /// The words of this language: the templates' catalogue, also for what the code says.
    private let words: Catalogue
    /// The sign-in provider's name where the words say `{provider}`: Auth0, or the issuer's host.
    private let provider: String

    /// Every key of the catalogue the code uses (errors have a `.title` and a `.message`).
    static let codeWords: [String] =
        [
            "page.welcome.title", "page.logged_out.title", "profile.heading", "logout.heading", "save.too_long",
            "flash.saved", "flash.refreshed", "flash.not_loaded", "flash.session_ended", "flash.others_ended",
            "flash.session_gone", "sessions.heading", "sessions.this_browser", "sessions.began", "sessions.last_used",
            "sessions.log_out_session", "sessions.device", "sessions.device_system", "sessions.device_unknown",
            "sessions.months", "sessions.date", "sessions.just_now", "sessions.minutes_ago", "sessions.hour_ago",
            "sessions.hours_ago", "sessions.day_ago", "sessions.days_ago",
        ]
        + (AuthError.allWordsKeys + ManagementError.allWordsKeys + WebError.allWordsKeys + [
            "error.forged_form", "error.internal", "error.not_found", "error.not_allowed",
        ] + EntryRule.allWordsKeys).flatMap { [$0 + ".title", $0 + ".message"] }

    /// Looks up every template the product uses, and every word the code says, so a missing
    /// one stops start-up.
    public init(library: TemplateLibrary, assets: StaticAssets = StaticAssets(), provider: String = "Auth0") throws {
        words = try library.catalogue(holding: Pages.codeWords)
        self.provider = provider
        self.assets = [
            "stylesheet": .text(assets.path("app.css")), "favicon": .text(assets.path("favicon.svg")),
            "placeholder": .text(assets.path("avatar-placeholder.svg")),
        ]
        // What is the same on every page of a process is filled in now, once: the asset paths,
        // and the title of the pages whose title never changes.
        let fixed = self.assets
        let words = words
        func titled(_ key: String) -> TemplateContext { fixed.adding(["title": .text(Pages.say(key, in: words))]) }
        welcome = try library.template("welcome").fixing(fixed)
        problem = try library.template("problem").fixing(fixed)
        profile = try library.template("profile").fixing(
            titled("profile.heading").adding(["affirmationLimit": .text(String(Pages.affirmationLimit))]))
        miniAppItem = try Pages.miniAppItem(of: profile)
        confirmLogout = try library.template("confirm-logout").fixing(titled("logout.heading"))
        sessionsPage = try library.template("sessions").fixing(titled("sessions.heading"))
    }

    /// `You're logged in!`: picture, name, email, the affirmation form, the announcement and
    /// `Log out`. `typed` replaces the saved affirmation in the field (after a failed save);
    /// `flash` is a one-time confirmation ("Affirmation saved."). Without `metadataOffered` (a
    /// provider that is not Auth0 keeps no metadata) a sentence saying so stands for the form.
    public func profile(
        _ session: Session, metadataOffered: Bool, miniAppItems: [[UInt8]] = [], typed: String? = nil,
        saveError: Words? = nil, flash: Flash? = nil, status: Int = 200
    ) -> Response {
        let picture = session.profile.picture
        var context = TemplateContext(capacity: 12)
        context.add("name", .text(session.profile.name))
        context.add("email", .text(session.profile.email))
        // Checked once at login (LoginCompletion.profile): empty means none or not a safe link.
        context.add("picture", picture.isEmpty ? assets["placeholder"]! : .text(picture))
        context.add("csrf", .text(session.csrfToken))
        context.add("affirmation", .text(typed ?? session.metadata.affirmation))
        context.add("metadataOffered", .flag(metadataOffered))
        if !miniAppItems.isEmpty {
            context.add("hasMiniApps", .flag(true))
            context.add("miniApps", .renderedItems(miniAppItems))
        }
        if let flash { context.add("flash", .text(say(flash: flash))) }
        if let saveError { context.add("saveError", .text(say(saveError.key, saveError.arguments))) }
        if let announcement = session.metadata.announcement {
            context.add("announcementURL", .text(announcement.url))
            context.add("announcementText", .text(announcement.text))
        }
        return .html(profile.render(context), status: status)
    }

    /// A mini app's item in the logged-in page's list, in this language.
    func miniAppItem(title: String, path: String, asksFirst: MiniAppStep) -> [UInt8] {
        miniAppItem.render(Self.miniAppItemContext(title: title, path: path, asksFirst: asksFirst))
    }

    /// The names and values a mini app's item is rendered with: all its body may use, since it is
    /// rendered before any page.
    private static func miniAppItemContext(title: String, path: String, asksFirst: MiniAppStep) -> TemplateContext {
        [
            "appTitle": .text(title), "appPath": .text(path), "secondFactor": .flag(asksFirst == .secondFactor),
            "loginAgain": .flag(asksFirst == .loginAgain),
        ]
    }

    /// The body of `profile`'s `miniApps` section; a template without one, or whose item uses a
    /// name an item does not have (`miniAppItemContext`), stops start-up.
    private static func miniAppItem(of profile: Template) throws -> Template {
        guard let item = profile.section(named: "miniApps") else {
            throw TemplateError(file: "profile.html", line: 0, message: "no {{#miniApps}} section")
        }
        let names = miniAppItemContext(title: "", path: "", asksFirst: .nothing)
        if let other = item.namesUsed.first(where: { names[$0] == nil }) {
            throw TemplateError(
                file: "profile.html", line: 0,
                message: "{{#miniApps}} uses \"\(other)\", which a mini app's item does not have")
        }
        return item
    }

    /// Asks before logging out (a GET must never log anyone out).
    public func confirmLogout(_ session: Session) -> Response {
        let context: TemplateContext = ["email": .text(session.profile.email), "csrf": .text(session.csrfToken)]
        return .html(confirmLogout.render(context))
    }

    /// The first screen (`Metadata demo`) or the one after logging out (`You're logged out.`).
    public func welcome(titleKey: String, message: String? = nil, loginHref: String = "/login") -> Response {
        var context: TemplateContext = ["title": .text(say(titleKey)), "loginHref": .text(loginHref)]
        if let message { context["message"] = .text(message) }
        return .html(welcome.render(context))
    }

    /// A page that explains what went wrong, with a way on: the words of `key` (`.title`,
    /// `.message`, their `{name}` marks filled from `arguments`).
    public func problem(status: Int, key: String, arguments: [String: String] = [:], offerLogin: Bool = false)
        -> Response
    {
        let context: TemplateContext = [
            "title": .text(say(key + ".title", arguments)), "message": .text(say(key + ".message", arguments)),
            "showLogin": .flag(offerLogin),
        ]
        return .html(problem.render(context), status: status)
    }

    /// The text of `key` in this language, its `{name}` marks filled from `arguments` (and
    /// `{provider}` with the provider's name, unless they say otherwise).
    func say(_ key: String, _ arguments: [String: String] = [:]) -> String {
        let text = Pages.say(key, in: words)
        guard text.contains("{") else { return text }
        var values = arguments
        if values["provider"] == nil { values["provider"] = provider }
        return Catalogue.filling(text, with: values)
    }

    /// The text of `key` in `words` (the key itself where it has none: start-up checks that the
    /// code's words are all there).
    private static func say(_ key: String, in words: Catalogue) -> String { words.text(key) ?? key }

    /// A flash in this language.
    func say(flash: Flash) -> String {
        switch flash {
        case .saved: say("flash.saved")
        case .refreshed: say("flash.refreshed")
        case .notLoaded(let reason): say("flash.not_loaded", ["reason": say(reason.key, reason.arguments)])
        case .sessionEnded(let device): say("flash.session_ended", ["device": deviceText(device)])
        case .othersEnded: say("flash.others_ended")
        case .othersEndedRecently: say("flash.others_ended_recently")
        case .sessionGone: say("flash.session_gone")
        case .written(let text): text
        }
    }
}
