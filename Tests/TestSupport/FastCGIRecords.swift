/// FastCGI records as a web server writes them, for the tests that feed the worker's reader,
/// in-process or over a socket: one encoder for both.
/// - SeeAlso: the FastCGI 1.0 specification: 3.3 (records), 3.4 (name-value pairs), 5.1 (begin).
public enum FastCGIRecords {
    /// A record's header and content (no padding: the content's length is its own).
    public static func record(type: UInt8, id: Int = 1, content: [UInt8]) -> [UInt8] {
        [
            1, type, UInt8(id >> 8 & 0xFF), UInt8(id & 0xFF), UInt8(content.count >> 8), UInt8(content.count & 0xFF), 0,
            0,
        ]
            + content
    }

    /// One name-value pair, each length in one byte below 128, else in four with the high bit set.
    public static func pair(_ name: String, _ value: String) -> [UInt8] {
        length(name.utf8.count) + length(value.utf8.count) + Array(name.utf8) + Array(value.utf8)
    }

    /// `FCGI_BEGIN_REQUEST` for `role` (1: responder, 2: authorizer), keeping the connection or not.
    public static func begin(id: Int = 1, role: UInt16 = 1, keepConnection: Bool = true) -> [UInt8] {
        record(type: 1, id: id, content: [UInt8(role >> 8), UInt8(role & 0xFF), keepConnection ? 1 : 0, 0, 0, 0, 0, 0])
    }

    /// A request's head as nginx sends it: the begin record, the parameters and their end; no
    /// standard input.
    public static func head(
        id: Int = 1, params: [(String, String)], role: UInt16 = 1, keepConnection: Bool = true
    ) -> [UInt8] {
        begin(id: id, role: role, keepConnection: keepConnection)
            + record(type: 4, id: id, content: params.flatMap { pair($0.0, $0.1) })
            + record(type: 4, id: id, content: [])
    }

    /// A whole request without a body: its head and the standard input's end.
    public static func request(
        id: Int = 1, params: [(String, String)], role: UInt16 = 1, keepConnection: Bool = true
    ) -> [UInt8] {
        head(id: id, params: params, role: role, keepConnection: keepConnection) + record(type: 5, id: id, content: [])
    }

    private static func length(_ count: Int) -> [UInt8] {
        count < 128
            ? [UInt8(count)]
            : [UInt8(count >> 24) | 0x80, UInt8((count >> 16) & 0xFF), UInt8((count >> 8) & 0xFF), UInt8(count & 0xFF)]
    }
}
