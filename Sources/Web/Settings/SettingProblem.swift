/// One problem with the settings, as a value: the setting it is about (by the name it was given
/// under), when it is about one, and what is wrong; its line names the setting first. Carried as
/// a value so no reader of problems has to take the name back out of the line.
public struct SettingProblem: Sendable, Equatable, CustomStringConvertible {
    /// The setting's name as given, or nil for a problem about no one setting.
    public let setting: String?
    /// What is wrong, without the setting's name.
    public let text: String

    /// A problem about `setting` (nil: about no one setting, `text` then being the whole line).
    public init(_ setting: String?, _ text: String) {
        self.setting = setting
        self.text = text
    }

    /// The line printed: `NAME: text`, or the text alone.
    public var line: String { setting.map { "\($0): \(text)" } ?? text }
    /// The same as `line`.
    public var description: String { line }
}
