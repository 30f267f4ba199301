import PerThread
import Web

/// The sessions this thread opened lately, by the text of their cookie. A person's page views
/// send the same sealed cookie until it is sealed again (within the hour while it is used,
/// `touchInterval`; at once when it changes), and opening it (base64, AES-GCM, some fifteen
/// strings made and later freed) was 40% of a page view's instructions. What is kept is what
/// opening the same text would give: only a cookie that opened is kept, only the very same text
/// finds it (the whole text is compared), and its expiry is judged on every use as opening judges
/// it. Per thread, so a page view takes no lock and shares no reference counts with another core.
/// At most `limit` a thread, one a slot, the slot chosen by the text's last eight characters (its
/// authentication tag's, as random as the tag): a cookie kept where another was replaces it, with
/// no hashing and no table to grow.
package final class OpenedSessions: Sendable {
    /// What opening a session cookie gave.
    struct Opened {
        let session: Session
        let issuedAt: Int64
        let expiresAt: Int64
    }

    /// Some hundred kilobytes a thread when full: a session and its cookie are about 1.5 KB.
    package static let limit = 128

    /// An object, so a look-up retains one reference, not the text and the session apart.
    private final class Entry {
        let text: String
        let opened: Opened

        init(text: consuming String, opened: consuming Opened) {
            self.text = text
            self.opened = opened
        }
    }

    private final class Slots {
        var entries = [Entry?](repeating: nil, count: OpenedSessions.limit)
    }

    private let ofThisThread = ThreadLocal<Slots, Never> { Slots() }

    /// What `text` opened to on this thread, when it did and has not expired since.
    func opened(_ text: Substring, now: Double) -> (session: Session, issuedAt: Int64)? {
        let slots = ofThisThread.value()
        let slot = Self.slot(of: text)
        guard let entry = slots.entries[slot], entry.text == text else { return nil }
        guard CookieSealer.isLive(expiresAt: entry.opened.expiresAt, now: now) else {
            slots.entries[slot] = nil
            return nil
        }
        return (entry.opened.session, entry.opened.issuedAt)
    }

    /// Remembers what `text` opened to, in place of whatever its slot held.
    /// Takes `opened` (consuming): a copy here was made and destroyed on every first view.
    func keep(_ text: Substring, _ opened: consuming Opened) {
        ofThisThread.value().entries[Self.slot(of: text)] = Entry(text: String(text), opened: opened)
    }

    /// The slot of a text: its last eight bytes as a number, mixed (Fibonacci hashing) so that
    /// every bit of them counts, its top bits taken.
    private static func slot(of text: Substring) -> Int {
        // Read where the bytes lie (a header's text always is contiguous): the view's generic
        // `suffix` cost 480 instructions. Any other text shares slot 0, compared in full all the same.
        let key =
            text.utf8.withContiguousStorageIfAvailable { bytes in
                bytes.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            } ?? 0
        return Int((key &* 0x9E37_79B9_7F4A_7C15) >> 33) % limit
    }
}
