import Web

/// Stronger authentication a login asks for (OpenID Connect's `max_age` and `acr_values`, as a
/// mini app needs or its API asks with RFC 9470's challenge): sent to `/authorize` and verified in
/// the ID token at the callback.
public struct StepUp: Sendable, Equatable {
    /// The longest time since the person last authenticated, in seconds.
    public var maxAge: Int64?
    /// The authentication context classes asked for, space-separated (Auth0's multi-factor
    /// policy among them).
    public var acrValues: String? {
        didSet { asked = Self.classes(acrValues) }
    }
    /// `acrValues` split once: a mini app's check and the logged-in page ask `isMet` on every
    /// request, and splitting a `String` by `Character` each time cost more than the rest of it.
    private var asked: [String]

    /// A step-up asking for these; nil values ask nothing.
    public init(maxAge: Int64? = nil, acrValues: String? = nil) {
        self.maxAge = maxAge
        self.acrValues = acrValues
        asked = Self.classes(acrValues)
    }

    private static func classes(_ acrValues: String?) -> [String] {
        acrValues.map { $0.split(separator: " ").map(String.init) } ?? []
    }

    /// Auth0's multi-factor policy: the ID token then says it as `acr`, and `mfa` in `amr`.
    public static let multiFactorPolicy = "http://schemas.openid.net/pape/policies/2007/06/multi-factor"

    /// The step-up asked for by the text of a query or a challenge: `max_age` whole seconds (at
    /// most a year), `acr_values` of URI characters only; nil when neither is given or valid.
    public init?(maxAge: String?, acrValues: String?) {
        let age = maxAge.flatMap { Int64($0) }.flatMap { (0...31_536_000).contains($0) ? $0 : nil }
        let acr = acrValues.flatMap { text -> String? in
            let trimmed = text.trimmingWhitespace()
            return (1...512).contains(trimmed.utf8.count)
                && trimmed.utf8.allSatisfy {
                    $0 == 0x20 || PercentEncoding.isUnreserved($0) || Self.uriMarks.contains($0)
                }
                ? trimmed : nil
        }
        guard age != nil || acr != nil else { return nil }
        self.init(maxAge: age, acrValues: acr)
    }

    private static let uriMarks: Set<UInt8> = Set(":/?#[]@!$&'()*+,;=%".utf8)

    /// True when it asks for the multi-factor policy (a second factor).
    public var asksMultiFactor: Bool { asked.contains(Self.multiFactorPolicy) }

    /// The `/authorize` (and `/login`) parameters that ask for it.
    public var parameters: [(String, String)] {
        var pairs: [(String, String)] = []
        if let maxAge { pairs.append(("max_age", String(maxAge))) }
        if let acrValues { pairs.append(("acr_values", acrValues)) }
        return pairs
    }

    /// True when an authentication at `authTime` with `acr` and `amr` (the ID token's claims)
    /// meets this step-up at `now`: `auth_time` within `maxAge` (60 s of leeway for clocks); for
    /// the multi-factor policy, `mfa` in `amr` (as Auth0's step-up guide checks it); for another
    /// class, `acr` naming it. An `acr` that is present must be a class asked for.
    public func isMet(authTime: Int64?, acr: String?, amr: [String], now: Int64) -> Bool {
        if let maxAge {
            guard let authTime, now - authTime <= maxAge + 60 else { return false }
        }
        guard acrValues != nil else { return true }
        if let acr, !asked.contains(acr) { return false }
        let secondFactorShown = asked.contains(Self.multiFactorPolicy) && amr.contains("mfa")
        let classShown = acr.map { $0 != Self.multiFactorPolicy } ?? false
        return secondFactorShown || classShown
    }
}
