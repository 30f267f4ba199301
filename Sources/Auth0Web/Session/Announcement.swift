import Web

/// The text and target of the announcement link.
public struct Announcement: Sendable, Equatable {
    /// `announcement_text`.
    public var text: String
    /// `announcement_url`, an absolute http(s) URL.
    public var url: String

    /// An announcement link.
    public init(text: String, url: String) {
        self.text = text
        self.url = url
    }
}
