/// An error that reaches a person as a status and words: the one path by which a failure
/// becomes a page. Anything else a handler throws is a generic 500 page and a log line. Its
/// words live in the pages' catalogue only, in every language the product speaks.
public protocol HTTPResponseError: Error {
    /// The status code to answer with.
    var status: Int { get }
    /// True when the way on is to log in (again); the page then offers `Log in`.
    var offersLogin: Bool { get }
    /// Its words in the pages' catalogue: `KEY.title` (the page's heading) and `KEY.message`.
    var wordsKey: String { get }
    /// Values for the `{name}` marks of its message.
    var wordsArguments: [String: String] { get }
}

extension HTTPResponseError {
    /// Not by default.
    public var offersLogin: Bool { false }

    /// None by default.
    public var wordsArguments: [String: String] { [:] }
}
