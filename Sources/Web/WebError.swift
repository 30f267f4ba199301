/// An error that reaches a person as a status and a short message.
public protocol HTTPResponseError: Error {
    /// The status code to answer with.
    var status: Int { get }
    /// A plain sentence for the person; never holds secrets.
    var publicMessage: String { get }
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

    public var status: Int {
        switch code {
        case .badRequest: 400
        case .unsupportedMediaType: 415
        case .contentTooLarge: 413
        }
    }

    public var publicMessage: String {
        switch code {
        case .badRequest(let why): "The request could not be understood: \(why)."
        case .unsupportedMediaType: "The form was sent in a format this site does not accept."
        case .contentTooLarge: "The request is too large."
        }
    }

    public var description: String { publicMessage }
}
