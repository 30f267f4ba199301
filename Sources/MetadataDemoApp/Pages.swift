import Web

/// Renders the product's screens from the templates loaded at start-up.
public struct Pages: Sendable {
    private let welcome: Template
    private let problem: Template

    /// Looks up every template the product uses, so a missing one stops start-up.
    public init(library: TemplateLibrary) throws {
        welcome = try library.template("welcome")
        problem = try library.template("problem")
    }

    /// The first screen (`Metadata demo`) or the one after logging out (`You're logged out.`).
    public func welcome(title: String, message: String? = nil, loginHref: String = "/login") -> Response {
        var context: TemplateContext = ["title": .text(title), "loginHref": .text(loginHref)]
        if let message { context["message"] = .text(message) }
        return .html(welcome.render(context))
    }

    /// A page that explains what went wrong, with a way on.
    public func problem(status: Int, title: String, message: String, offerLogin: Bool = false) -> Response {
        let context: TemplateContext = [
            "title": .text(title), "message": .text(message), "showLogin": .flag(offerLogin),
        ]
        return .html(problem.render(context), status: status)
    }
}
