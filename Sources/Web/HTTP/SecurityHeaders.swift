/// The security headers every page carries.
public struct SecurityHeaders: Sendable {
    /// The `Content-Security-Policy` value: no scripts at all, styles and images from here,
    /// forms only to here and the login tenant (a logout form redirects there).
    public let contentSecurityPolicy: String
    private let fixed: [(name: String, value: String)]

    /// - Parameters:
    ///   - formTargets: origins besides `'self'` that forms may lead to (the tenant).
    ///   - imageSources: origins besides `'self'` and any https site that images may come from.
    public init(formTargets: [String] = [], imageSources: [String] = []) {
        let forms = (["'self'"] + formTargets).joined(separator: " ")
        let images = (["'self'", "https:", "data:"] + imageSources.filter { !$0.hasPrefix("https:") })
            .joined(separator: " ")
        contentSecurityPolicy =
            "default-src 'none'; script-src 'none'; style-src 'self'; img-src \(images); "
            + "form-action \(forms); frame-ancestors 'none'; base-uri 'none'"
        fixed = [
            ("Content-Security-Policy", contentSecurityPolicy),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "same-origin"),
            ("X-Frame-Options", "DENY"),
            ("Cross-Origin-Opener-Policy", "same-origin"),
            // Pages are for this site alone: no other site may embed them as a resource, and no
            // page asks for a device (the browser refuses any script that would).
            ("Cross-Origin-Resource-Policy", "same-origin"),
            ("Permissions-Policy", SecurityHeaders.permissionsPolicy),
            ("Cache-Control", "no-store"),
        ]
    }

    /// Every powerful feature turned off for the page and anything it could embed.
    public static let permissionsPolicy =
        "accelerometer=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), magnetometer=(), "
        + "microphone=(), payment=(), usb=()"

    /// Adds the headers that the response does not set itself.
    public func apply(to response: inout Response) {
        for (name, value) in fixed where response.header(name) == nil {
            response.add(name, value)
        }
    }
}
