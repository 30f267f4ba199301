/// The origin of an absolute URL, as browsers write it in `Origin` and CSP source lists.
public enum URLOrigin {
    /// `scheme://host[:port]` of `url`; nil when it has no scheme.
    public static func of(_ url: String) -> String? {
        guard let schemeEnd = url.firstRange(of: "://") else { return nil }
        let host = url[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return String(url[..<schemeEnd.upperBound]) + host
    }
}
