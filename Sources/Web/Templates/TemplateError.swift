/// Why a template could not be loaded: the file, the line and what is wrong.
public struct TemplateError: Error, Equatable, CustomStringConvertible {
    /// The template's file name.
    public let file: String
    /// The line the problem is on.
    public let line: Int
    /// What is wrong.
    public let message: String

    /// The problem `message` at `line` of `file` (0: the whole file).
    package init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: message`.
    public var description: String { "\(file):\(line): \(message)" }
}
