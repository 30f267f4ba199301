import Web

/// A JWT time claim (`exp`, `iat`): RFC 7519's NumericDate, seconds since 1970, read only when
/// it is a finite number between 1970 and the end of year 9999. Anything else (1e300, a negative
/// time) is refused where it is read, so converting it to an integer later can never trap.
enum NumericDate {
    /// 9999-12-31T23:59:59Z, the last second a four-digit year can write.
    static let latest: Double = 253_402_300_799

    /// The claim's value in whole seconds, or nil when it is missing, not a number or out of range.
    static func seconds(_ claim: JSONValue?) -> Int64? {
        guard let value = claim?.number, value.isFinite, value >= 0, value <= latest else { return nil }
        return Int64(value.rounded(.down))
    }
}
