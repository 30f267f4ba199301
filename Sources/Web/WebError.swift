/// An error that reaches a person as a status and a short message: the one path by which a
/// failure becomes a page. Anything else a handler throws is a generic 500 page and a log line.
public protocol HTTPResponseError: Error {
    /// The status code to answer with.
    var status: Int { get }
    /// A short heading for the page; by default one that fits the status.
    var title: String { get }
    /// A plain sentence for the person; never holds secrets.
    var publicMessage: String { get }
    /// True when the way on is to log in (again); the page then offers `Log in`.
    var offersLogin: Bool { get }
    /// Its words in the pages' catalogue: `KEY.title` and `KEY.message` (the English of
    /// `title` and `publicMessage`, in every language the product speaks).
    var wordsKey: String { get }
    /// Values for the `{name}` marks of its message.
    var wordsArguments: [String: String] { get }
}

extension HTTPResponseError {
    /// A heading that fits the status.
    public var title: String {
        switch status {
        case 400: "Bad request"
        case 403: "Not allowed"
        case 404: "Page not found"
        case 413: "Too large"
        case 415: "Unsupported form"
        case 429: "Too many requests"
        default: status >= 500 ? "Something went wrong" : "That did not work"
        }
    }

    /// Not by default.
    public var offersLogin: Bool { false }

    /// None by default.
    public var wordsArguments: [String: String] { [:] }
}

/// Errors of the web layer itself: bad input from the client.
public struct WebError: HTTPResponseError, Equatable, CustomStringConvertible {
    private enum Code: Equatable { case badRequest(String), unsupportedMediaType, contentTooLarge }
    private let code: Code

    /// The request could not be understood (bad encoding, bad UTF-8, NUL bytes).
    public static func badRequest(_ why: String) -> WebError { WebError(code: .badRequest(why)) }
    /// A form was posted with another content type.
    public static let unsupportedMediaType = WebError(code: .unsupportedMediaType)
    /// The body is over the limit.
    public static let contentTooLarge = WebError(code: .contentTooLarge)

    /// 400, 415 or 413.
    public var status: Int {
        switch code {
        case .badRequest: 400
        case .unsupportedMediaType: 415
        case .contentTooLarge: 413
        }
    }

    /// What was wrong with the request, in plain words.
    public var publicMessage: String {
        switch code {
        case .badRequest(let why): "The request could not be understood: \(why)."
        case .unsupportedMediaType: "The form was sent in a format this site does not accept."
        case .contentTooLarge: "The request is too large."
        }
    }

    /// The public message.
    public var description: String { publicMessage }

    /// `request.bad_percent`, `request.nul`, `request.not_utf8`, `request.other`,
    /// `request.unsupported_form` or `request.too_large`.
    public var wordsKey: String {
        switch code {
        case .badRequest(let why):
            switch why {
            case "a broken percent escape": "request.bad_percent"
            case "a NUL byte": "request.nul"
            case "text that is not UTF-8": "request.not_utf8"
            default: "request.other"
            }
        case .unsupportedMediaType: "request.unsupported_form"
        case .contentTooLarge: "request.too_large"
        }
    }

    /// Every key `wordsKey` can be.
    public static let allWordsKeys = [
        "request.bad_percent", "request.nul", "request.not_utf8", "request.other", "request.unsupported_form",
        "request.too_large",
    ]
}
