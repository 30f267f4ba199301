import Testing
import Web

@Suite struct FormDataTests {
    @Test func decodesPercentEscapesAndPlus() throws {
        let form = try FormData(urlEncoded: Array("a=1%2B1&b=hello+world&c=%E2%9C%93".utf8))
        #expect(form["a"] == "1+1")
        #expect(form["b"] == "hello world")
        #expect(form["c"] == "✓")
    }

    @Test func keepsRepeatedNamesAndEmptyValues() throws {
        let form = try FormData(urlEncoded: Array("x=1&x=2&flag&&y=".utf8))
        #expect(form.all("x") == ["1", "2"])
        #expect(form["flag"] == "")
        #expect(form["y"] == "")
        #expect(form["missing"] == nil)
    }

    @Test(arguments: ["a=%", "a=%4", "a=%zz", "%G0=1", "a=%C3%28", "a=%00", "a=%FF"])
    func rejectsBrokenEncodingAsBadRequest(_ input: String) {
        #expect(throws: WebError.self) { try FormData(urlEncoded: Array(input.utf8)) }
        do {
            _ = try FormData(urlEncoded: Array(input.utf8))
        } catch let error as WebError {
            #expect(error.status == 400)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func rejectsRawInvalidUTF8() {
        #expect(throws: WebError.self) { try FormData(urlEncoded: [0x61, 0x3D, 0xC3]) }
    }

    @Test func encodesEverythingButUnreserved() {
        #expect(PercentEncoding.encode("auth0|123") == "auth0%7C123")
        #expect(PercentEncoding.encode("a b/é~") == "a%20b%2F%C3%A9~")
        #expect(PercentEncoding.formEncode([("k", "v&w"), ("x", "")]) == "k=v%26w&x=")
    }

    @Test func formBodyNeedsFormContentType() throws {
        var request = Request(method: "POST", path: "/", body: Array("a=1".utf8))
        #expect(throws: WebError.unsupportedMediaType) { try request.formBody() }
        request.headers["content-type"] = "application/x-www-form-urlencoded; charset=UTF-8"
        #expect(try request.formBody()["a"] == "1")
    }
}
