import Web

/// What the product shows from the person's metadata, kept in the session so a page view
/// never calls the rate-limited Management API.
public struct MetadataSnapshot: Sendable, Equatable {
    /// `user_metadata.personal_affirmation`, or empty.
    public var affirmation: String
    /// The announcement link, when `app_metadata` turns it on and its URL is safe.
    public var announcement: Announcement?
    /// The `app_metadata` flags, among those mini apps' rules name, that are `true`.
    public var flags: [String]

    /// A snapshot with this affirmation, announcement and flags.
    public init(affirmation: String = "", announcement: Announcement? = nil, flags: [String] = []) {
        self.affirmation = affirmation
        self.announcement = announcement
        self.flags = flags
    }
}
