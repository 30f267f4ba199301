/// Why a template could not be loaded: the file, the line and what is wrong.
public struct TemplateError: Error, Equatable, CustomStringConvertible {
    /// The template's file name.
    public let file: String
    /// The line the problem is on.
    public let line: Int
    /// What is wrong.
    public let message: String

    /// `file:line: message`.
    public var description: String { "\(file):\(line): \(message)" }
}
