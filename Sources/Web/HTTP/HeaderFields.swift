/// A request's header fields, names in lower case, in the order they came. A request carries a
/// dozen at most and a page reads a few by name: a row of pairs compared length first costs less
/// than a dictionary's allocation and hashing, made and thrown away on every request.
public struct HeaderFields: Sendable, ExpressibleByDictionaryLiteral {
    private var fields: [(name: String, value: String)] = []

    /// No fields.
    public init() {}

    /// No fields, with room for `capacity` without growing.
    public init(capacity: Int) { fields.reserveCapacity(capacity) }

    /// Fields from a literal; names are expected in lower case.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields.reserveCapacity(elements.count)
        for (name, value) in elements { self[name] = value }
    }

    /// Fields from a dictionary; names are expected in lower case.
    public init(_ dictionary: [String: String]) {
        fields.reserveCapacity(dictionary.count)
        for (name, value) in dictionary { self[name] = value }
    }

    /// The value of a lower-case name; setting replaces the one value (nil removes it).
    public subscript(name: String) -> String? {
        get { index(of: name).map { fields[$0].value } }
        set {
            switch (index(of: name), newValue) {
            case (let index?, let value?): fields[index].value = value
            case (let index?, nil): fields.remove(at: index)
            case (nil, let value?): fields.append((name, value))
            case (nil, nil): break
            }
        }
    }

    private func index(of name: String) -> Int? {
        let length = name.utf8.count
        return fields.firstIndex { $0.name.utf8.count == length && $0.name == name }
    }
}
