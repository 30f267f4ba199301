import Locking

/// Where a template's names lie in contexts of the layouts it rendered lately: a page builds its
/// context the same way on every view, so the places of its names, found by comparing names once,
/// are found again by comparing the context's names to the layout's as bits (a short name is its
/// bits, a longer one its storage's address, which the layout kept alive holds still). A context
/// laid out differently is looked up name by name, as before, and remembered while there is room.
final class TemplateSlotMemo: Sendable {
    /// One layout: the names in the order the context holds them, and each of the template's
    /// names' places in it (-1: not there).
    private struct Layout {
        let names: [String]
        let slots: [Int]
    }

    /// A template renders with a few layouts (a page with a notice, a list or none): past this
    /// many, others are looked up each time.
    static let most = 16

    private let layouts = Lock<[Layout]>([])

    init() {}

    /// Writes the places of `names` in `context` into `slots` (one per name).
    func fill(_ slots: UnsafeMutableBufferPointer<Int>, names: [String], from context: TemplateContext) {
        let entries = context.values.entries
        let known = layouts.withLock { layouts in
            for layout in layouts where Self.sameNames(layout.names, entries) {
                _ = slots.update(fromContentsOf: layout.slots)
                return true
            }
            return false
        }
        if known { return }
        for (index, name) in names.enumerated() { slots[index] = context.index(of: name) ?? -1 }
        // Made only when there is room for it: a template past its layouts pays the look-ups alone.
        // Another thread may have added the same layout since it was looked for.
        layouts.withLock { layouts in
            guard layouts.count < Self.most, !layouts.contains(where: { Self.sameNames($0.names, entries) })
            else { return }
            layouts.append(Layout(names: entries.map(\.name), slots: Array(slots)))
        }
    }

    /// True when each entry's name is, bit for bit, the layout's name at its place: the same short
    /// name, or the very string the layout holds (so the same text).
    private static func sameNames(_ names: [String], _ entries: [NamedValues<TemplateValue>.Entry]) -> Bool {
        guard names.count == entries.count else { return false }
        for index in 0..<names.count where !sameBits(names[index], entries[index].name) { return false }
        return true
    }

    private static func sameBits(_ one: String, _ other: String) -> Bool {
        let first = unsafeBitCast(one, to: (UInt64, UInt64).self)
        let second = unsafeBitCast(other, to: (UInt64, UInt64).self)
        return first == second
    }
}
