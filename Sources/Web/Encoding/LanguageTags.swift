/// Reading the languages a browser or an application asks for (BCP 47 tags).
public enum LanguageTags {
    /// True for the tags of Simplified Chinese, in any case: zh, zh-CN, zh-Hans, zh-SG, zh-Hans-*.
    public static func isSimplifiedChinese(_ tag: some StringProtocol) -> Bool {
        let tag = tag.utf8
        // Most tags are not Chinese at all: their first two letters say so before any comparison.
        guard let first = tag.first, lowered(first) == UInt8(ascii: "z"),
            let second = tag.dropFirst().first, lowered(second) == UInt8(ascii: "h")
        else { return false }
        for chinese in simplifiedChinese where sameLetters(tag, chinese.utf8) { return true }
        return tag.count >= 8 && sameLetters(tag.prefix(8), "zh-hans-".utf8)
    }

    private static let simplifiedChinese = ["zh", "zh-cn", "zh-hans", "zh-sg"]

    /// True when the most wanted language of an `Accept-Language` header is Simplified Chinese.
    public static func wantsSimplifiedChinese(acceptLanguage header: String) -> Bool {
        mostWantedRange(acceptLanguage: header).map { isSimplifiedChinese(header[$0]) } ?? false
    }

    /// The most wanted tag of an `Accept-Language` header (RFC 9110, 12.5.4): the highest weight
    /// (the first among equals), never one weighed `q=0` or with a weight that is not one
    /// (`q=2`, `q=high`). Read in one pass over the header's bytes: a browser sends it with
    /// every page, and splitting it into strings cost a page's rendering several times over.
    public static func mostWanted(acceptLanguage header: String) -> String? {
        mostWantedRange(acceptLanguage: header).map { String(header[$0]) }
    }

    /// Where the most wanted tag lies in `header` (a slice of it is judged with no string made).
    private static func mostWantedRange(acceptLanguage header: String) -> Range<String.Index>? {
        var best: (start: Int, end: Int, weight: Int)?
        var item = AcceptLanguageItem()
        var offset = 0
        for byte in header.utf8 {
            if byte == UInt8(ascii: ",") {
                item.end(into: &best)
                item = AcceptLanguageItem()
            } else {
                item.take(byte, at: offset)
            }
            offset += 1
        }
        item.end(into: &best)
        guard let best else { return nil }
        let bytes = header.utf8
        let start = bytes.index(bytes.startIndex, offsetBy: best.start)
        return start..<bytes.index(start, offsetBy: best.end - best.start)
    }

    /// Whether `text` is `lower` with its ASCII letters in any case.
    private static func sameLetters(_ text: some Collection<UInt8>, _ lower: String.UTF8View) -> Bool {
        text.count == lower.count && zip(text, lower).allSatisfy { lowered($0) == $1 }
    }

    /// An ASCII capital as its small letter; any other byte as it is.
    private static func lowered(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}

/// One item of an `Accept-Language` header as its bytes come: a tag between optional spaces, then
/// parameters after `;`, of which only the weight (`q=`, a number from 0 to 1, RFC 9110 12.4.2)
/// counts, kept in thousandths.
private struct AcceptLanguageItem {
    private enum Part { case tag, parameterName, weight, otherParameter }

    private var part = Part.tag
    /// Where the tag starts and ends (offsets in the header), spaces around it left out.
    private var tagStart: Int?
    private var tagEnd = 0
    /// The parameter's name so far: its first byte and its length.
    private var nameFirst: UInt8 = 0
    private var nameLength = 0
    /// The weight in thousandths: 1000 without one, nil once it is not a number from 0 to 1.
    private var weight: Int? = 1000
    /// The weight being read: its characters so far, whether a space ended it, the place value
    /// of its next decimal (decimals past the third are ignored).
    private var weightCharacters = 0
    private var weightEnded = false
    private var decimalPlace = 100

    mutating func take(_ byte: UInt8, at offset: Int) {
        let isSpace = byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
        if byte == UInt8(ascii: ";") {
            endWeight()
            part = .parameterName
            nameLength = 0
            return
        }
        switch part {
        case .tag:
            guard !isSpace else { return }
            if tagStart == nil { tagStart = offset }
            tagEnd = offset + 1
        case .parameterName:
            if isSpace, nameLength == 0 { return }
            if byte == UInt8(ascii: "="), nameLength == 1, nameFirst | 0x20 == UInt8(ascii: "q") {
                part = .weight
                weight = 0
                weightCharacters = 0
                weightEnded = false
                decimalPlace = 100
                return
            }
            if nameLength == 0 { nameFirst = byte }
            nameLength += 1
            if byte == UInt8(ascii: "=") { part = .otherParameter }
        case .weight:
            takeWeight(byte, isSpace: isSpace)
        case .otherParameter:
            break
        }
    }

    /// One byte of the weight: "0" or "1", then optionally "." and decimals; spaces after it.
    private mutating func takeWeight(_ byte: UInt8, isSpace: Bool) {
        guard !isSpace else {
            weightEnded = weightCharacters > 0
            return
        }
        let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        switch weightCharacters {
        case _ where weightEnded: weight = nil
        case 0 where byte == UInt8(ascii: "0") || byte == UInt8(ascii: "1"):
            weight? = Int(byte - UInt8(ascii: "0")) * 1000
        case 1 where byte == UInt8(ascii: "."): break
        case 2... where isDigit:
            weight? += Int(byte - UInt8(ascii: "0")) * decimalPlace
            decimalPlace /= 10
        default: weight = nil
        }
        weightCharacters += 1
    }

    /// A weight with nothing after `q=`, or over 1, is not one.
    private mutating func endWeight() {
        guard part == .weight else { return }
        if weightCharacters == 0 || (weight ?? 0) > 1000 { weight = nil }
    }

    /// The item is whole: it becomes `best` when it has a tag and weighs more than `best`.
    mutating func end(into best: inout (start: Int, end: Int, weight: Int)?) {
        endWeight()
        guard let tagStart, let weight, weight > 0, weight > best?.weight ?? 0 else { return }
        best = (tagStart, tagEnd, weight)
    }
}
