import Web

/// The product's pages in every language it speaks, each loaded once at start-up from the same
/// templates and its own catalogue: a request only picks one.
public struct LocalizedPages: Sendable {
    private let english: Pages
    private let chinese: Pages

    /// Loads the templates of `directory` with `i18n/en.json` and `i18n/zh.json`, naming the
    /// sign-in `provider` where the words speak of it.
    public init(directory: String, assets: StaticAssets = StaticAssets(), provider: String = "Auth0") throws {
        english = try Pages(
            library: TemplateLibrary(directory: directory, language: "en"), assets: assets, provider: provider)
        chinese = try Pages(
            library: TemplateLibrary(directory: directory, language: "zh"), assets: assets, provider: provider)
    }

    /// The pages of `language`.
    public subscript(_ language: Language) -> Pages { language == .zh ? chinese : english }
}
