import TestSupport
import Testing
import Web

@testable import FastCGIServer

/// A request read from its records as nginx sends them, and an answer written as records.
@Suite struct RequestRecordsTests {
    private func record(_ type: UInt8, id: Int = 1, _ content: [UInt8]) -> [UInt8] {
        FastCGIRecords.record(type: type, id: id, content: content)
    }

    private func pair(_ name: String, _ value: String) -> [UInt8] { FastCGIRecords.pair(name, value) }

    private func read(_ bytes: [UInt8], maxBodyBytes: Int = 1 << 20) -> ReceivedRequest? {
        bytes.withUnsafeBytes { ReceivedRequest.read($0, maxBodyBytes: maxBodyBytes) }
    }

    /// Header names arrive as CGI names; the common ones and any other read back alike.
    @Test func headerNamesReadAsHTTPWritesThem() throws {
        let names = [
            "HOST", "COOKIE", "ACCEPT", "USER_AGENT", "SEC_FETCH_SITE", "X_ORIGINAL_URI", "X_FORWARDED_FOR", "DNT",
            "X_A_HEADER_LONGER_THAN_SIXTEEN", "HOSTS", "COOKIE2",
        ]
        let params = names.map { pair("HTTP_" + $0, $0.lowercased()) }.reduce([], +)
        let bytes = record(1, [0, 1, 1, 0, 0, 0, 0, 0]) + record(4, params) + record(4, []) + record(5, [])
        let received = try #require(read(bytes))
        for name in names {
            let header = name.lowercased().replacing("_", with: "-")
            #expect(received.head.headers[header] == name.lowercased(), "\(name)")
        }
    }

    /// The path and query come from `REQUEST_URI`; `QUERY_STRING` is the query only when the URI
    /// has none, in whichever order nginx sends them.
    @Test func pathAndQueryComeFromTheURIElseTheQueryString() throws {
        func head(_ params: [UInt8]) throws -> Request {
            let bytes = record(1, [0, 1, 1, 0, 0, 0, 0, 0]) + record(4, params) + record(4, []) + record(5, [])
            return try #require(read(bytes)).head
        }
        let both = try head(pair("QUERY_STRING", "b=2") + pair("REQUEST_URI", "/p?a=1"))
        #expect(both.path == "/p" && both.query == "a=1")
        let bothAfter = try head(pair("REQUEST_URI", "/p?a=1") + pair("QUERY_STRING", "b=2"))
        #expect(bothAfter.path == "/p" && bothAfter.query == "a=1")
        let plain = try head(pair("REQUEST_URI", "/p") + pair("QUERY_STRING", "b=2"))
        #expect(plain.path == "/p" && plain.query == "b=2")
        let emptyQuery = try head(pair("REQUEST_URI", "/p?"))
        #expect(emptyQuery.path == "/p" && emptyQuery.query == "")
        let none = try head(pair("QUERY_STRING", "b=2"))
        #expect(none.path == "/" && none.query == "b=2")
    }

    /// The common methods are found by their bytes; any other, and a near miss, read as sent.
    @Test(arguments: ["GET", "POST", "HEAD", "PUT", "GETS", "get", "PATCH", "OPTIONS", "GE", ""])
    func theMethodReadsAsSent(method: String) throws {
        let bytes =
            record(1, [0, 1, 1, 0, 0, 0, 0, 0]) + record(4, pair("REQUEST_METHOD", method)) + record(4, [])
            + record(5, [])
        #expect(try #require(read(bytes)).head.method == method)
    }

    @Test func aRequestSplitOverSeveralRecordsReadsWhole() throws {
        let longValue = String(repeating: "a", count: 300)  // a four-byte length
        let params =
            pair("REQUEST_METHOD", "POST") + pair("REQUEST_URI", "/affirmation?x=1") + pair("HTTP_X_LONG", longValue)
            + pair("CONTENT_TYPE", "application/x-www-form-urlencoded") + pair("CONTENT_LENGTH", "11")
            + pair("HTTP_ACCEPT_LANGUAGE", "zh-CN") + pair("REMOTE_ADDR", "127.0.0.1")
        // The parameters cut in the middle of a pair, the body in two records.
        let bytes =
            record(1, id: 7, [0, 1, 1, 0, 0, 0, 0, 0]) + record(4, id: 7, Array(params[..<40]))
            + record(4, id: 7, Array(params[40...])) + record(4, id: 7, []) + record(5, id: 7, Array("hello ".utf8))
            + record(5, id: 7, Array("world".utf8)) + record(5, id: 7, [])
        let received = try #require(read(bytes))
        #expect(received.requestID == 7)
        #expect(received.role == 1)
        #expect(received.keepsConnection)
        #expect(received.head.method == "POST")
        #expect(received.head.path == "/affirmation")
        #expect(received.head.query == "x=1")
        #expect(received.head.headers["x-long"] == longValue)
        #expect(received.head.headers["accept-language"] == "zh-CN")
        #expect(received.head.headers["content-type"] == "application/x-www-form-urlencoded")
        #expect(received.head.remoteAddress == "127.0.0.1")
        #expect(received.contentLength == 11)
        #expect(received.head.body == Array("hello world".utf8))
        #expect(received.managementAnswers.isEmpty)
    }

    @Test func theBodyKeptIsAtMostItsLengthAndTheLimit() throws {
        let head = record(1, [0, 1, 0, 0, 0, 0, 0, 0]) + record(4, pair("CONTENT_LENGTH", "4")) + record(4, [])
        let body = record(5, Array("abcdefgh".utf8)) + record(5, [])
        #expect(try #require(read(head + body)).head.body == Array("abcd".utf8))
        #expect(try #require(read(head + body, maxBodyBytes: 2)).head.body == Array("ab".utf8))
        #expect(try #require(read(head + body)).keepsConnection == false)
    }

    /// `CONTENT_LENGTH` is a non-negative decimal or the request is refused whole, as broken
    /// pairs are; read with a body or from the head alone (the 413 answer's way), it never traps.
    @Test(arguments: ["-1", "-9223372036854775808", " 4", "4 ", "+4", "4x", "0x10", "99999999999999999999"])
    func aLengthThatIsNotANonNegativeNumberIsRefused(length: String) {
        let head = record(1, [0, 1, 0, 0, 0, 0, 0, 0]) + record(4, pair("CONTENT_LENGTH", length)) + record(4, [])
        for body in [[], Array("abc".utf8)] {
            let bytes = head + (body.isEmpty ? [] : record(5, body)) + record(5, [])
            #expect(read(bytes) == nil)
            #expect(bytes.withUnsafeBytes { ReceivedRequest.read($0, maxBodyBytes: 0, readingBody: false) } == nil)
        }
    }

    @Test func anEmptyOrZeroLengthIsNoBody() throws {
        for length in ["", "0", "000"] {
            let bytes =
                record(1, [0, 1, 0, 0, 0, 0, 0, 0]) + record(4, pair("CONTENT_LENGTH", length)) + record(4, [])
                + record(5, Array("abc".utf8)) + record(5, [])
            let received = try #require(read(bytes))
            #expect(received.contentLength == 0 && received.head.body.isEmpty)
            #expect(received.head.headers["content-length"] == nil)
        }
    }

    /// A length that runs past the parameters' end is not a request.
    @Test(arguments: [[UInt8]([5, 1, 65, 66]), [0x80, 0, 0], [200, 1] + Array(repeating: 65, count: 100)])
    func brokenPairsAreRefused(params: [UInt8]) {
        let bytes = record(1, [0, 1, 1, 0, 0, 0, 0, 0]) + record(4, params) + record(4, []) + record(5, [])
        #expect(read(bytes) == nil)
    }

    /// Review 3, item 5: asked a thousand times, the variable is stated once (the answer's one
    /// record had a length past 16 bits, cut).
    @Test func getValuesAskedOverAndOverIsAnsweredOnce() throws {
        let asked = record(9, id: 0, Array(repeating: pair("FCGI_MPXS_CONNS", ""), count: 1000).flatMap { $0 })
        let bytes = asked + record(1, [0, 1, 1, 0, 0, 0, 0, 0]) + record(4, []) + record(5, [])
        #expect(try #require(read(bytes)).managementAnswers == record(10, id: 0, pair("FCGI_MPXS_CONNS", "0")))
    }

    /// Review 3, item 5: a head over 65,535 bytes (many cookies) had its record length cut to 16
    /// bits, and nginx read the rest of the head as records. It goes in several records now.
    @Test func aHeadLongerThanARecordIsSplitAcrossRecords() {
        let cookies = (0..<900).map { ("Set-Cookie", "c\($0)=" + String(repeating: "v", count: 80) + "; Path=/") }
        let response = Response(status: 200, headers: cookies, body: Array("ok".utf8))
        var written = GrowingBytes(capacity: 64)
        AnswerRecords.append(response, withBody: true, requestID: 3, to: &written)
        let out = written.array()
        var stdout: [UInt8] = []
        var types: [UInt8] = []
        var offset = 0
        while offset + 8 <= out.count {
            let header = out.withUnsafeBytes { FastCGIRecord.Header(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            types.append(header.type)
            if header.type == 6 { stdout += out[(offset + 8)..<(offset + 8 + header.contentLength)] }
            offset += header.recordLength
        }
        #expect(offset == out.count)
        #expect(types.filter { $0 == 6 }.count >= 4 && types.last == 3)
        let text = String(decoding: stdout, as: UTF8.self)
        #expect(text.hasPrefix("Status: 200 OK\r\nSet-Cookie: c0="))
        #expect(text.hasSuffix("Content-Length: 2\r\n\r\nok"))
        #expect(text.components(separatedBy: "Set-Cookie: ").count == 901)
    }

    @Test func getValuesIsAnsweredWithTheRequest() throws {
        let asked = record(9, id: 0, pair("FCGI_MPXS_CONNS", "") + pair("FCGI_NOT_KNOWN", ""))
        let bytes = asked + record(1, [0, 1, 1, 0, 0, 0, 0, 0]) + record(4, []) + record(5, [])
        let answers = try #require(read(bytes)).managementAnswers
        #expect(answers == record(10, id: 0, pair("FCGI_MPXS_CONNS", "0")))
    }

    /// The answer: the head in one record, the body in records of at most 65,535 bytes, the
    /// output's end and the request's end, all for the request's id.
    @Test func anAnswerIsWrittenAsRecordsForItsRequest() {
        let response = Response(
            status: 200, headers: [("Content-Type", "text/plain")], body: Array(repeating: 120, count: 70_000))
        var written = GrowingBytes(capacity: 64)
        AnswerRecords.append(response, withBody: true, requestID: 300, to: &written)
        let out = written.array()
        var records: [(type: UInt8, id: Int, content: [UInt8])] = []
        var offset = 0
        while offset < out.count {
            let header = out.withUnsafeBytes { FastCGIRecord.Header(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            let start = offset + 8
            records.append((header.type, header.requestID, Array(out[start..<(start + header.contentLength)])))
            offset += header.recordLength
        }
        #expect(offset == out.count)
        #expect(records.count > 2)  // the head alone takes more than one record
        #expect(records.allSatisfy { $0.id == 300 })
        #expect(records.map(\.type) == [6, 6, 6, 6, 3])
        #expect(
            String(decoding: records[0].content, as: UTF8.self)
                == "Status: 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 70000\r\n\r\n")
        #expect(records[1].content.count == 65_535)
        #expect(records[1].content.count + records[2].content.count == 70_000)
        #expect(records[3].content.isEmpty)
        #expect(records[4].content == [0, 0, 0, 0, 0, 0, 0, 0])
        var headOnly = GrowingBytes(capacity: 64)
        AnswerRecords.append(response, withBody: false, requestID: 1, to: &headOnly)
        #expect(headOnly.count == records[0].content.count + 8 + 8 + 16)
    }
}
