import Web

/// The tenant's pages in one language, and its catalogue for the sentences the code says
/// (`text:` + the English; the English catalogue has none).
struct TenantPages: Sendable {
    let login: Template
    let consent: Template
    let mfa: Template
    let message: Template
    let words: Catalogue?

    init(_ templates: TemplateLibrary) throws {
        login = try templates.template("login")
        consent = try templates.template("consent")
        mfa = try templates.template("mfa")
        message = try templates.template("message")
        words = templates.catalogue
    }
}
