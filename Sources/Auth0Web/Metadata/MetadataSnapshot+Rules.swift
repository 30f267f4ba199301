import FoundationEssentials
import Web

extension MetadataSnapshot {
    /// What the page shows from the metadata, by the app's rules: the announcement only when
    /// `display_announcement` is the boolean `true`, its text and URL are non-empty strings, and
    /// the URL is an absolute `http`/`https` URL; of `flagNames`, those whose value is the boolean
    /// `true`. `onUnsafeURL` hears of a URL refused.
    public init(document: UserMetadataDocument, flagNames: [String] = [], onUnsafeURL: (String) -> Void = { _ in }) {
        let affirmation = document.userMetadata["personal_affirmation"]?.string ?? ""
        var announcement: Announcement?
        let app = document.appMetadata
        if app["display_announcement"]?.bool == true, let text = app["announcement_text"]?.string,
            let url = app["announcement_url"]?.string, !text.isEmpty, !url.isEmpty
        {
            if MetadataSnapshot.isSafeLink(url) {
                announcement = Announcement(text: text, url: url)
            } else {
                onUnsafeURL(url)
            }
        }
        let flags = flagNames.filter { app[$0]?.bool == true }
        self.init(affirmation: affirmation, announcement: announcement, flags: flags)
    }

    /// True for an absolute `http` or `https` URL with a host and nothing a browser would
    /// reinterpret (no spaces or control characters).
    public static func isSafeLink(_ text: String) -> Bool {
        guard text.utf8.count <= 2048, text.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F }),
            let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty,
            text.lowercased().hasPrefix(scheme + "://")
        else { return false }
        return true
    }
}
