/// Errors of the web layer itself: bad input from the client.
public struct WebError: HTTPResponseError, Equatable, CustomStringConvertible {
    /// Why a request could not be understood.
    public enum BadRequest: String, Sendable, CaseIterable {
        case brokenPercentEscape = "a broken percent escape"
        case nulByte = "a NUL byte"
        case notUTF8 = "text that is not UTF-8"

        /// Its words in the pages' catalogue.
        var wordsKey: String {
            switch self {
            case .brokenPercentEscape: "request.bad_percent"
            case .nulByte: "request.nul"
            case .notUTF8: "request.not_utf8"
            }
        }
    }

    private enum Code: Equatable { case badRequest(BadRequest), unsupportedMediaType, contentTooLarge }
    private let code: Code

    /// The request could not be understood (bad encoding, bad UTF-8, NUL bytes).
    public static func badRequest(_ why: BadRequest) -> WebError { WebError(code: .badRequest(why)) }
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

    /// Why a bad request could not be understood; nil for the other errors.
    public var badRequestReason: BadRequest? {
        if case .badRequest(let why) = code { return why }
        return nil
    }

    /// What was wrong, for the log.
    public var description: String {
        switch code {
        case .badRequest(let why): "bad request: \(why.rawValue)"
        case .unsupportedMediaType: "unsupported media type"
        case .contentTooLarge: "content too large"
        }
    }

    /// Its words in the pages' catalogue.
    public var wordsKey: String {
        switch code {
        case .badRequest(let why): why.wordsKey
        case .unsupportedMediaType: "request.unsupported_form"
        case .contentTooLarge: "request.too_large"
        }
    }

    /// Every key `wordsKey` can be: every error's.
    public static var allWordsKeys: [String] { every.map(\.wordsKey) }

    /// One error of each code, a bad request of each reason.
    static var every: [WebError] { BadRequest.allCases.map(badRequest) + [unsupportedMediaType, contentTooLarge] }
}
