import Web

/// A one-time confirmation on the next page, kept in its own sealed cookie as words (a key of
/// the catalogue and its values), so the page says it in the language it is read in.
public enum Flash: Equatable, Sendable {
    /// "Affirmation saved."
    case saved
    /// "Affirmation refreshed."
    case refreshed
    /// The metadata could not be read after a login: why, in an error's words.
    case notLoaded(because: Words)
    /// "Logged out Firefox on Windows." (a session ended from "Your sessions").
    case sessionEnded(DeviceName)
    /// "Logged out everywhere else."
    case othersEnded
    /// "You logged out everywhere else less than a minute ago…" (a repeat, refused).
    case othersEndedRecently
    /// "That session had already ended."
    case sessionGone
    /// A cookie sealed before flashes were words (plain English), shown as written.
    case written(String)

    private static let reasonSuffix = ".message"

    /// The flash of the cookie's text.
    init(stored: String) {
        switch Words(stored: stored) {
        case Words("flash.saved")?: self = .saved
        case Words("flash.refreshed")?: self = .refreshed
        case Words("flash.others_ended")?: self = .othersEnded
        case Words("flash.others_ended_recently")?: self = .othersEndedRecently
        case Words("flash.session_gone")?: self = .sessionGone
        case let words? where words.key == "flash.session_ended":
            let name = { (key: String) in words.arguments[key].flatMap { $0.isEmpty ? nil : $0 } }
            self = .sessionEnded(DeviceName(browser: name("browser"), system: name("system")))
        case let words? where words.key == "flash.not_loaded" && words.arguments["reason"] != nil:
            var arguments = words.arguments
            let reason = arguments.removeValue(forKey: "reason")!
            self = .notLoaded(because: Words(reason + Flash.reasonSuffix, arguments))
        default: self = .written(stored)
        }
    }

    /// The text its cookie keeps.
    var stored: String {
        switch self {
        case .saved: Words("flash.saved").stored
        case .refreshed: Words("flash.refreshed").stored
        case .notLoaded(let reason):
            Words(
                "flash.not_loaded",
                reason.arguments.merging(["reason": String(reason.key.dropLast(Flash.reasonSuffix.count))]) { $1 }
            ).stored
        case .sessionEnded(let device):
            Words("flash.session_ended", ["browser": device.browser ?? "", "system": device.system ?? ""]).stored
        case .othersEnded: Words("flash.others_ended").stored
        case .othersEndedRecently: Words("flash.others_ended_recently").stored
        case .sessionGone: Words("flash.session_gone").stored
        case .written(let text): text
        }
    }
}
