/// A request's header fields, looked up by lower-case name. Those the web server passed stay as
/// it wrote them (`ReceivedHeaderBytes`), made into text only when read; those set by name
/// (`NamedValues`: a request carries a dozen at most) come first.
public struct HeaderFields: Sendable, ExpressibleByDictionaryLiteral {
    private var fields: NamedValues<String>
    /// The fields as the web server passed them, beneath those set by name.
    package var received = ReceivedHeaderBytes()

    /// No fields.
    public init() { fields = NamedValues() }

    /// Fields from a literal; names are expected in lower case.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = NamedValues(capacity: elements.count)
        for (name, value) in elements { fields[name] = value }
    }

    /// Fields from a dictionary; names are expected in lower case.
    public init(_ dictionary: [String: String]) {
        fields = NamedValues(capacity: dictionary.count)
        for (name, value) in dictionary { fields[name] = value }
    }

    /// The value of a lower-case name (of a name the server sent twice, the last); setting
    /// replaces every value of the name (nil removes them).
    public subscript(name: String) -> String? {
        get { fields[name] ?? received.value(named: name) }
        set {
            received.remove(named: name)
            fields[name] = newValue
        }
    }
}
