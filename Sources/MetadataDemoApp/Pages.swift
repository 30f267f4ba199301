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
    /// The words of this language: the templates' catalogue, also for what the code says.
    private let words: Catalogue

    /// Every key of the catalogue the code uses (errors have a `.title` and a `.message`).
    static let codeWords: [String] =
        [
            "page.welcome.title", "page.logged_out.title", "profile.heading", "logout.heading", "save.too_long",
            "flash.saved", "flash.refreshed", "flash.not_loaded",
        ]
        + (AuthError.allWordsKeys + ManagementError.allWordsKeys + WebError.allWordsKeys + [
            "error.forged_form", "error.internal", "error.not_found", "error.not_allowed",
        ]).flatMap { [$0 + ".title", $0 + ".message"] }

    /// Looks up every template the product uses, and every word the code says, so a missing
    /// one stops start-up.
    public init(library: TemplateLibrary, assets: StaticAssets = StaticAssets()) throws {
        words = try library.catalogue(holding: Pages.codeWords)
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
        _ session: Session, typed: String? = nil, saveError: Words? = nil, flash: String? = nil, status: Int = 200
    ) -> Response {
        let picture = session.profile.picture
        var context: TemplateContext = [
            "title": .text(say("profile.heading")),
            "name": .text(session.profile.name),
            "email": .text(session.profile.email),
            // Checked once at login (see LoginRoutes): empty means none or not a safe link.
            "picture": picture.isEmpty ? assets["placeholder"]! : .text(picture),
            "csrf": .text(session.csrfToken),
            "affirmation": .text(typed ?? session.metadata.affirmation),
            "affirmationLimit": .text(String(Pages.affirmationLimit)),
        ]
        if let flash { context["flash"] = .text(say(flash: flash)) }
        if let saveError { context["saveError"] = .text(say(saveError.key, saveError.arguments)) }
        if let announcement = session.metadata.announcement {
            context["announcementURL"] = .text(announcement.url)
            context["announcementText"] = .text(announcement.text)
        }
        return .html(profile.render(context, shared: assets), status: status)
    }

    /// Asks before logging out (a GET must never log anyone out).
    public func confirmLogout(_ session: Session) -> Response {
        let context: TemplateContext = [
            "title": .text(say("logout.heading")), "email": .text(session.profile.email),
            "csrf": .text(session.csrfToken),
        ]
        return .html(confirmLogout.render(context, shared: assets))
    }

    /// The first screen (`Metadata demo`) or the one after logging out (`You're logged out.`).
    public func welcome(titleKey: String, message: String? = nil, loginHref: String = "/login") -> Response {
        var context: TemplateContext = ["title": .text(say(titleKey)), "loginHref": .text(loginHref)]
        if let message { context["message"] = .text(message) }
        return .html(welcome.render(context, shared: assets))
    }

    /// A page that explains what went wrong, with a way on: the words of `key` (`.title`,
    /// `.message` with its `{name}` marks filled from `arguments`).
    public func problem(status: Int, key: String, arguments: [String: String] = [:], offerLogin: Bool = false)
        -> Response
    {
        let context: TemplateContext = [
            "title": .text(say(key + ".title")), "message": .text(say(key + ".message", arguments)),
            "showLogin": .flag(offerLogin),
        ]
        return .html(problem.render(context, shared: assets), status: status)
    }

    /// The text of `key` in this language, its `{name}` marks filled from `arguments`.
    func say(_ key: String, _ arguments: [String: String] = [:]) -> String {
        var text = words.text(key) ?? key
        for (name, value) in arguments { text = text.replacingOccurrences(of: "{\(name)}", with: value) }
        return text
    }

    /// A flash kept in its cookie as words (`Words.stored`), said in this language; one that is
    /// not (from before the catalogue) is shown as it is.
    func say(flash stored: String) -> String {
        guard let words = Words(stored: stored), self.words.text(words.key) != nil else { return stored }
        var arguments = words.arguments
        if let reason = arguments["reason"] {
            arguments["reason"] = say(reason + ".message", arguments.filter { $0.key != "reason" })
        }
        return say(words.key, arguments)
    }
}

/// Words to say later or elsewhere (a flash in its cookie, a save's error on the page): a key
/// of the catalogue and the values of its marks.
public struct Words: Sendable, Equatable {
    /// The catalogue's key.
    public let key: String
    /// Values for the `{name}` marks.
    public let arguments: [String: String]

    /// The words of `key`.
    public init(_ key: String, _ arguments: [String: String] = [:]) {
        self.key = key
        self.arguments = arguments
    }

    /// The words an error's page says.
    public init(_ error: any HTTPResponseError) { self.init(error.wordsKey + ".message", error.wordsArguments) }

    /// `key?name=value&…`, for a cookie.
    public var stored: String {
        arguments.isEmpty ? key : key + "?" + PercentEncoding.formEncode(arguments.sorted { $0.key < $1.key })
    }

    /// Words read back from `stored`; nil for text that is not a key.
    public init?(stored: String) {
        let parts = stored.split(separator: "?", maxSplits: 1).map(String.init)
        guard let key = parts.first, !key.isEmpty, !key.contains(" ") else { return nil }
        var arguments: [String: String] = [:]
        if parts.count == 2, let form = try? FormData(urlEncoded: Array(parts[1].utf8)) {
            for pair in form.pairs { arguments[pair.name] = pair.value }
        }
        self.init(key, arguments)
    }
}
