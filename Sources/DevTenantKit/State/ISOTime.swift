import Foundation

/// ISO-8601 time with milliseconds, as Auth0 writes `updated_at`.
func isoTime(_ seconds: Double) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.string(from: Date(timeIntervalSince1970: seconds))
}
