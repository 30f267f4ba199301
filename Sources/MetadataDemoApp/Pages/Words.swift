import Auth0Web
import Web

/// Words to say later or elsewhere (a flash in its cookie, a save's error on the page): a key
/// of the catalogue and the values of its marks.
public struct Words: Sendable, Equatable {
    /// The catalogue's key.
    public let key: String
    /// Values for the `{name}` marks.
    public let arguments: [String: String]

    /// The words of `key`.
    public init(_ key: String, _ arguments: [String: String] = [:]) {
        self.key = key
        self.arguments = arguments
    }

    /// The words an error's page says.
    public init(_ error: any HTTPResponseError) { self.init(error.wordsKey + ".message", error.wordsArguments) }

    /// `key?name=value&…`, for a cookie.
    public var stored: String {
        arguments.isEmpty ? key : key + "?" + PercentEncoding.formEncode(arguments.sorted { $0.key < $1.key })
    }

    /// Words read back from `stored`; nil for text that is not a key.
    public init?(stored: String) {
        let parts = stored.split(separator: "?", maxSplits: 1).map(String.init)
        guard let key = parts.first, !key.isEmpty, !key.contains(" ") else { return nil }
        var arguments: [String: String] = [:]
        if parts.count == 2, let form = try? FormData(urlEncoded: Array(parts[1].utf8)) {
            for pair in form.pairs { arguments[pair.name] = pair.value }
        }
        self.init(key, arguments)
    }
}
