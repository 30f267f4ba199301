/// Reading the languages a browser or an application asks for (BCP 47 tags).
public enum LanguageTags {
    /// True for the tags of Simplified Chinese: zh, zh-CN, zh-Hans, zh-SG, zh-Hans-*.
    public static func isSimplifiedChinese(_ tag: some StringProtocol) -> Bool {
        let tag = tag.lowercased()
        return ["zh", "zh-cn", "zh-hans", "zh-sg"].contains(tag) || tag.hasPrefix("zh-hans-")
    }

    /// True when the most wanted language of an `Accept-Language` header is Simplified Chinese.
    public static func wantsSimplifiedChinese(acceptLanguage header: String) -> Bool {
        mostWanted(acceptLanguage: header).map(isSimplifiedChinese) ?? false
    }

    /// The most wanted tag of an `Accept-Language` header: the highest `q` (the first among
    /// equals), never one with `q=0`.
    public static func mostWanted(acceptLanguage header: String) -> String? {
        var best: (tag: String, q: Double)?
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { String($0).trimmingSpaces() }
            guard let tag = parts.first, !tag.isEmpty else { continue }
            var q = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                q = Double(parameter.dropFirst(2)) ?? 0
            }
            if q > 0, q > (best?.q ?? 0) { best = (tag, q) }
        }
        return best?.tag
    }
}
