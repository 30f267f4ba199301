/// What only a mini app's check could see when it refused: sent to nginx in `X-Auth-Refusal`,
/// which passes it back to the refusal page as `why`. The page reads only these words, whoever
/// writes them, and each names the sentence the person reads.
enum CheckRefusal: String, CaseIterable, Sendable {
    /// The provider did not grant the person a permission the app's API needs.
    case permissions
    /// No token for the app's API could be handed on.
    case apiUnavailable = "api_unavailable"
    /// What the check would hand the app does not fit nginx's buffer.
    case tooLarge = "too_large"
    /// The mini-apps file names no app of the check's name (a location added before the file's entry).
    case unknownApp = "unknown_app"

    /// The header the check's 403 carries it in.
    static let header = "X-Auth-Refusal"

    /// The catalogue key of the refusal's words.
    var wordsKey: String {
        switch self {
        case .permissions: EntryRule.wordsKey(.permissions)
        case .apiUnavailable, .tooLarge, .unknownApp: "mini_app.refused." + rawValue
        }
    }
}
