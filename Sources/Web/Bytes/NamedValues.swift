/// Values by name, one per name, in the order they were first set: a request's header fields set
/// by name, a template's context, a router's paths. They hold a few dozen at most and are read by name a few
/// times each, so a row compared length first costs less than a dictionary's hashing (and, made
/// on every request, its allocation). Inlinable, for the router's copy specialised in the module
/// that uses it.
@usableFromInline
struct NamedValues<Value: Sendable>: Sendable {
    // A struct, not a tuple: an array of tuples is destroyed through the runtime's generic tuple
    // code, element by element, which cost a page's context more than building it.
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline let name: String
        /// The name's UTF-8 length, kept beside it: a look-up compares it for every entry.
        @usableFromInline let length: Int
        @usableFromInline var value: Value

        @inlinable
        init(_ name: consuming String, _ value: consuming Value) {
            self.name = name
            length = name.utf8.count
            self.value = value
        }
    }
    @usableFromInline var entries: [Entry] = []

    /// Reserving room for none would still make an array: an empty one stays the shared one.
    @inlinable
    init(capacity: Int = 0) { if capacity > 0 { entries.reserveCapacity(capacity) } }

    /// Adds a name not there yet (a literal's names are distinct: no look-up for each).
    mutating func appendNew(_ name: consuming String, _ value: consuming Value) {
        assert(index(of: name) == nil, "\(name) named twice")
        entries.append(Entry(name, value))
    }

    /// The value of a name; setting nil removes it, setting a known name replaces its value.
    @inlinable
    subscript(name: String) -> Value? {
        get { index(of: name).map { entries[$0].value } }
        set {
            switch (index(of: name), newValue) {
            case (let index?, let value?): entries[index].value = value
            case (let index?, nil): entries.remove(at: index)
            case (nil, let value?): entries.append(Entry(name, value))
            case (nil, nil): break
            }
        }
    }

    /// The value at a place `index(of:)` gave.
    func value(at index: Int) -> Value { entries[index].value }

    /// Every name and value, in order.
    var all: [(name: String, value: Value)] { entries.map { ($0.name, $0.value) } }

    /// Where `name` is: lengths first, the text only for names of the same length; most names
    /// looked for are not there.
    @inlinable
    func index(of name: String) -> Int? {
        let length = name.utf8.count
        return entries.firstIndex { $0.length == length && $0.name == name }
    }
}
