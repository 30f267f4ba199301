import Testing
import Web

@testable import FastCGIServer

/// The CGI-style head the worker writes before a response's body.
@Suite struct ResponseEncodingTests {
    private func head(_ response: Response) -> String {
        var out = GrowingBytes(capacity: 64)
        AnswerRecords.appendHead(of: response, to: &out)
        return String(decoding: out.array(), as: UTF8.self)
    }

    @Test func statusLineHeadersLengthAndABlankLine() {
        var response = Response.html(Array("<p>hi</p>".utf8), status: 404)
        response.add("X-Extra", "1")
        #expect(
            head(response)
                == "Status: 404 Not Found\r\nContent-Type: text/html; charset=utf-8\r\nX-Extra: 1\r\nContent-Length: 9\r\n\r\n"
        )
    }

    @Test func aGivenContentLengthIsNotRepeated() {
        let response = Response(status: 200, headers: [("Content-Length", "0")], body: [])
        #expect(head(response) == "Status: 200 OK\r\nContent-Length: 0\r\n\r\n")
    }

    /// A value that would split the head (CR, LF or NUL) is dropped, never sent.
    @Test(arguments: ["a\r\nSet-Cookie: x=1", "a\nb", "a\rb", "a\u{0}b"])
    func aHeaderThatWouldSplitTheHeadIsDropped(value: String) {
        var response = Response(status: 302)
        response.add("Location", value)
        response.add("X-Kept", "yes")
        let text = head(response)
        #expect(!text.contains("Location"))
        #expect(!text.contains("Set-Cookie"))
        #expect(text.contains("X-Kept: yes\r\n"))
    }
}
