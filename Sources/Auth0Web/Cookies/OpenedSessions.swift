import PerThread
import Web

/// The sessions this thread opened lately, by the text of their cookie. A person's page views
/// send the same sealed cookie until it is sealed again (at most hourly: `touchInterval`), and
/// opening it (base64, AES-GCM, some fifteen strings made and later freed) was 40% of a page
/// view's instructions. What is kept is what opening the same text would give: only a cookie that
/// opened is kept, only the very same text finds it (a key of its last eight characters, which
/// are its authentication tag's, and the whole text compared behind the key), and its expiry is
/// judged on every use as opening judges it. Per thread, so a page view takes no lock and shares
/// no reference counts with another core; at most `limit` a thread, one forgotten per one kept
/// past that.
package final class OpenedSessions: Sendable {
    /// What opening a session cookie gave.
    struct Opened {
        let session: Session
        let issuedAt: Int64
        let expiresAt: Int64
    }

    /// Some hundred kilobytes a thread when full: a session and its cookie are about 1.5 KB.
    package static let limit = 128

    /// An object, so a look-up retains one reference, not the session's every string.
    private final class Entry {
        let text: String
        let opened: Opened

        init(text: String, opened: Opened) {
            self.text = text
            self.opened = opened
        }
    }

    private final class Kept {
        var byKey: [UInt64: Entry] = [:]
    }

    private let ofThisThread = ThreadLocal<Kept, Never> { Kept() }

    /// What `text` opened to on this thread, when it did and has not expired since.
    func opened(_ text: Substring, now: Double) -> Opened? {
        let kept = ofThisThread.value()
        let key = Self.key(text)
        guard let entry = kept.byKey[key], entry.text == text else { return nil }
        guard Double(entry.opened.expiresAt) > now else {
            kept.byKey[key] = nil
            return nil
        }
        return entry.opened
    }

    /// Remembers what `text` opened to.
    func keep(_ text: Substring, _ opened: Opened) {
        let kept = ofThisThread.value()
        if kept.byKey.count >= Self.limit { kept.byKey.remove(at: kept.byKey.startIndex) }
        kept.byKey[Self.key(text)] = Entry(text: String(text), opened: opened)
    }

    private static func key(_ text: Substring) -> UInt64 {
        var key: UInt64 = 0
        for byte in text.utf8.suffix(8) { key = key << 8 | UInt64(byte) }
        return key
    }
}
