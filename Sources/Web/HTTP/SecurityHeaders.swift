/// The security headers every page carries.
public struct SecurityHeaders: Sendable {
    /// The `Content-Security-Policy` value: no scripts at all, styles and images from here,
    /// forms only to here and the login tenant (a logout form redirects there).
    public let contentSecurityPolicy: String
    private let fixed: [(name: String, value: String)]
    /// The fixed fields' names, looked through on every answer (apart: walking the pairs copied
    /// and destroyed each tuple through the runtime's generic tuple code).
    private let fixedNames: [String]
    /// Bit `n` set when a fixed field's name is `n` bytes long.
    private let fixedNameLengths: UInt64
    /// Every fixed field, and every one but `Cache-Control` (for answers that say how long they
    /// keep), prepared once: nearly every answer takes one of the two.
    private let every: PreparedHeaders
    private let everyButCacheControl: PreparedHeaders
    private static let cacheControl = "Cache-Control"
    /// `Cache-Control`'s bit among the fixed fields.
    private let cacheControlBit: UInt32
    /// The policy's and `X-Frame-Options`' bits: a response with a policy of its own says who may
    /// frame it there (`frame-ancestors`, which CSP Level 2 has browsers obey over
    /// `X-Frame-Options`), so `DENY` is not added beside it.
    private let policyBit: UInt32
    private let frameOptionsBit: UInt32

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
            (SecurityHeaders.cacheControl, "no-store"),
        ]
        fixedNames = fixed.map(\.name)
        fixedNameLengths = fixedNames.reduce(0) { $0 | 1 << $1.utf8.count }
        cacheControlBit = 1 << fixed.firstIndex { $0.name == SecurityHeaders.cacheControl }!
        policyBit = 1 << fixed.firstIndex { $0.name == "Content-Security-Policy" }!
        frameOptionsBit = 1 << fixed.firstIndex { $0.name == "X-Frame-Options" }!
        every = PreparedHeaders(fixed)
        everyButCacheControl = PreparedHeaders(fixed.filter { $0.name != SecurityHeaders.cacheControl })
    }

    /// Every powerful feature turned off for the page and anything it could embed.
    public static let permissionsPolicy =
        "accelerometer=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), magnetometer=(), "
        + "microphone=(), payment=(), usb=()"

    /// Adds the headers that the response does not set itself (and no `X-Frame-Options` beside a
    /// policy of its own): one look at the few it has (this runs on every request).
    public func apply(to response: inout Response) {
        var present: UInt32 = 0
        for header in response.headers {
            // Only a name as long as one of them can be one of them: most are looked at no further.
            let length = header.name.utf8.count
            guard length < 64, fixedNameLengths & (1 << length) != 0 else { continue }
            for (index, name) in fixedNames.enumerated() where Response.sameName(header.name, name) {
                present |= 1 << index
            }
        }
        if present & policyBit != 0 { present |= frameOptionsBit }
        if present == 0 {
            response.preparedHeaders = every
        } else if present == cacheControlBit {
            response.preparedHeaders = everyButCacheControl
        } else {
            response.headers.reserveCapacity(response.headers.count + fixed.count)
            for (index, header) in fixed.enumerated() where present & (1 << index) == 0 {
                response.headers.append(header)
            }
        }
    }
}
