import Web

/// The text and target of the announcement link.
public struct Announcement: Sendable, Equatable {
    /// `announcement_text`.
    public var text: TextBytes
    /// `announcement_url`, an absolute http(s) URL.
    public var url: TextBytes

    /// An announcement link.
    public init(text: TextBytes, url: TextBytes) {
        self.text = text
        self.url = url
    }

    /// An announcement link.
    public init(text: String, url: String) { self.init(text: TextBytes(text), url: TextBytes(url)) }
}
