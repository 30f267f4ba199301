import RedisStore
import Testing

/// Replies as the adapter takes them from a server: read by hiredis' own reader from the bytes
/// a server sends (RESP2), and written back the same.
@Suite struct RedisReplyTests {
    private let wire = Array(
        ("+OK\r\n:42\r\n$5\r\nhello\r\n$-1\r\n-ERR wrong type\r\n*3\r\n$1\r\na\r\n:7\r\n*1\r\n+PONG\r\n"
            + "$0\r\n\r\n").utf8)

    @Test func everyKindOfReplyIsReadAsTheServerSentIt() throws {
        let replies = try #require(RedisReply.replies(in: wire))
        #expect(
            replies == [
                .status("OK"), .integer(42), .string(Array("hello".utf8)), .null, .error("ERR wrong type"),
                .array([.string([UInt8(ascii: "a")]), .integer(7), .array([.status("PONG")])]), .string([]),
            ])
        #expect(replies.flatMap(\.encoded) == wire)
    }

    @Test func aReplyCutShortIsNotReadYet() throws {
        #expect(try #require(RedisReply.replies(in: Array("+OK\r\n$5\r\nhel".utf8))) == [.status("OK")])
    }

    @Test func bytesThatAreNotTheProtocolAreRefused() {
        #expect(RedisReply.replies(in: Array("?what\r\n".utf8)) == nil)
    }
}
