/// The browser and system of a `User-Agent`, in the names people know them by ("Firefox",
/// "Windows"), for "Your sessions". No parser of these strings is kept for Swift (none is in
/// the local mirror), so this is a small table of the common families, most specific first:
/// Edge and Opera say "Chrome" too, and every Chromium and iOS browser says "Safari".
public struct DeviceName: Sendable, Equatable {
    /// "Firefox", "Chrome", …; nil when none matched.
    public let browser: String?
    /// "Windows", "macOS", "iPhone", …; nil when none matched.
    public let system: String?

    /// What `userAgent` says, or nothing known.
    public init(userAgent: String?) {
        let text = userAgent ?? ""
        browser = Self.browsers.first { text.contains($0.marker) }?.name
        system = Self.systems.first { text.contains($0.marker) }?.name
    }

    /// A device named directly (one read back from the store).
    public init(browser: String?, system: String?) {
        self.browser = browser
        self.system = system
    }

    private static let browsers: [(marker: String, name: String)] = [
        ("Edg/", "Edge"), ("EdgA/", "Edge"), ("EdgiOS/", "Edge"), ("OPR/", "Opera"),
        ("SamsungBrowser/", "Samsung Internet"),
        ("YaBrowser/", "Yandex Browser"), ("Vivaldi/", "Vivaldi"), ("FxiOS/", "Firefox"), ("Firefox/", "Firefox"),
        ("CriOS/", "Chrome"), ("HeadlessChrome/", "Chrome"), ("Chromium/", "Chromium"), ("Chrome/", "Chrome"),
        ("Safari/", "Safari"), ("curl/", "curl"),
    ]

    private static let systems: [(marker: String, name: String)] = [
        ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("CrOS", "ChromeOS"),
        ("Windows", "Windows"), ("Mac OS X", "macOS"), ("Macintosh", "macOS"), ("Linux", "Linux"),
    ]
}
