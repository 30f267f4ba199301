import Auth0Web
import MetadataDemoApp
import TestSupport
import Web

/// The product's services over a scripted tenant, with the shared test settings.
enum TestServices {
    static func make(http: any HTTPClient = ScriptedHTTPClient(), clock: Clock = .system) throws -> AppServices {
        try AppServices(settings: TestSettings.auth0, endpoints: TestSettings.endpoints, http: http, clock: clock)
    }

    /// The product with its real templates over a scripted tenant.
    static func app(http: any HTTPClient = ScriptedHTTPClient(), clock: Clock = .system) throws -> MetadataDemo {
        let pages = try Pages(library: TemplateLibrary(directory: MetadataDemoTests.templatesDirectory))
        return MetadataDemo(pages: pages, services: try make(http: http, clock: clock), log: Log(minimum: .error))
    }
}
