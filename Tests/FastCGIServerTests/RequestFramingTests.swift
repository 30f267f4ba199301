import Testing

@testable import FastCGIServer

/// When the poller hands a request to libfcgi: only once it is whole, judged from the record
/// headers as they arrive.
@Suite struct RequestFramingTests {
    private static func record(_ type: UInt8, id: UInt16 = 1, _ content: [UInt8], padding: UInt8 = 0) -> [UInt8] {
        [1, type, UInt8(id >> 8), UInt8(id & 0xFF), UInt8(content.count >> 8), UInt8(content.count & 0xFF), padding, 0]
            + content + [UInt8](repeating: 0, count: Int(padding))
    }

    private static let begin = record(1, [0, 1, 1, 0, 0, 0, 0, 0])
    private static let params = record(4, Array("\u{0E}\u{04}REQUEST_METHODPOST".utf8), padding: 6) + record(4, [])
    private static let body = record(5, [UInt8](repeating: 0x61, count: 300), padding: 4) + record(5, [])
    private static let request = begin + params + body

    private func judge(_ bytes: [UInt8], head: Int = 1024, body: Int = 1024) -> RequestFraming.Verdict {
        var framing = RequestFraming(maxHeadBytes: head, maxBodyBytes: body)
        return bytes.withUnsafeBytes { framing.judge($0) }
    }

    @Test func aWholeRequestIsCompleteAndEveryShorterPrefixIsNot() {
        #expect(judge(Self.request) == .complete)
        for cut in 0..<Self.request.count {
            #expect(judge(Array(Self.request[..<cut])) == .incomplete, "cut at \(cut)")
        }
    }

    /// After a 413, the rest of the body is walked record by record and dropped, the judged
    /// records forgotten as they go, to its empty record; what follows is the next request's.
    @Test func theRestOfARefusedBodyIsSkippedToItsEnd() {
        let rest = Self.record(5, [UInt8](repeating: 0x62, count: 500), padding: 3) + Self.record(2, []) + Self.body
        let next = Self.begin
        var framing = RequestFraming(maxHeadBytes: 1024, maxBodyBytes: 16)
        framing.skipBody(thenClose: false)
        #expect(framing.isSkippingBody && !framing.closesAfterBody)
        // In pieces, each piece starting where the last whole record ended.
        let bytes = rest + next
        var held: [UInt8] = []
        var offset = 0
        var verdict = RequestFraming.Verdict.incomplete
        while verdict == .incomplete, offset < bytes.count {
            let piece = held + bytes[offset..<min(offset + 37, bytes.count)]
            offset = min(offset + 37, bytes.count)
            verdict = piece.withUnsafeBytes { framing.judge($0) }
            if verdict == .incomplete {
                held = Array(piece[framing.judgedLength...])
                framing.dropJudged()
            } else {
                held = Array(piece[framing.judgedLength...])
            }
        }
        #expect(verdict == .skipped)
        #expect(next.starts(with: held + bytes[offset...]))
        var other = RequestFraming(maxHeadBytes: 1024, maxBodyBytes: 16)
        other.skipBody(thenClose: true)
        #expect(other.closesAfterBody)
        #expect(Self.params.withUnsafeBytes { other.judge($0) } == .malformed, "only the body's records may come")
    }

    @Test func judgingAsBytesArriveGivesTheSameVerdicts() {
        var framing = RequestFraming(maxHeadBytes: 1024, maxBodyBytes: 1024)
        for end in 1...Self.request.count {
            let verdict = Array(Self.request[..<end]).withUnsafeBytes { framing.judge($0) }
            #expect(verdict == (end == Self.request.count ? .complete : .incomplete), "at \(end) bytes")
        }
        framing.reset()
        let again = Self.request.withUnsafeBytes { framing.judge($0) }
        #expect(again == .complete)
    }

    @Test func aBodyOverTheLimitIsToldFromTheRecordHeaderBeforeItsContentArrives() {
        let announced = Self.begin + Self.params + Array(Self.record(5, [UInt8](repeating: 0, count: 2000)).prefix(8))
        #expect(judge(announced, body: 1024) == .bodyTooLarge)
        let inPieces =
            Self.begin + Self.params + Self.record(5, [UInt8](repeating: 0, count: 600))
            + Array(Self.record(5, [UInt8](repeating: 0, count: 600)).prefix(8))
        #expect(judge(inPieces, body: 1024) == .bodyTooLarge)
        #expect(judge(Self.request, body: 300) == .complete)  // exactly the limit
    }

    @Test func aHeadOverTheLimitIsTold() {
        let bigHead = Self.begin + Self.record(4, [UInt8](repeating: 0, count: 2000))
        #expect(judge(Array(bigHead.prefix(16 + 8)), head: 1024) == .headTooLarge)
    }

    @Test func whatIsNotARequestAsAWebServerSendsOneIsMalformed() {
        #expect(judge(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)) == .malformed)
        #expect(judge(Self.record(5, [])) == .malformed)  // input before any begin
        #expect(judge(Self.begin + Self.record(5, [])) == .malformed)  // input before the parameters end
        #expect(judge(Self.begin + Self.begin) == .malformed)  // a second request on top (no multiplexing)
        #expect(judge(Self.record(1, [0, 1, 0])) == .malformed)  // a begin record of the wrong size
        #expect(judge(Self.record(6, [1])) == .malformed)  // a record only the worker sends
        #expect(judge(Self.begin + Self.record(4, [1], padding: 0) + Self.record(4, id: 0, [])) == .malformed)
    }

    @Test func contentsCutIntoTinyRecordsCannotOutgrowTheBuffer() {
        // 9,000 one-byte records: 9 KB of parameters, within the limit, in 81 KB of records.
        var tiny = Self.begin
        for _ in 0..<9000 { tiny += Self.record(4, [0x41]) }
        #expect(judge(tiny, head: 40_000, body: 0) == .malformed)
    }

    @Test func theCapacityHoldsTheLargestRequestWithinTheLimits() {
        let framing = RequestFraming(maxHeadBytes: 96 * 1024, maxBodyBytes: 64 * 1024)
        #expect(framing.capacity >= 96 * 1024 + 64 * 1024 + 8 * 16)
    }
}
