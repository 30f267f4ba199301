import Testing
import Web

@Suite struct HeaderFieldsTests {
    @Test func aNameHoldsOneValueThatCanBeReplacedAndRemoved() {
        var fields: HeaderFields = ["cookie": "a=1", "accept": "text/html"]
        #expect(fields["cookie"] == "a=1")
        #expect(fields["cookies"] == nil)  // same start, other length
        #expect(fields["accept"] == "text/html")
        fields["cookie"] = "b=2"
        #expect(fields["cookie"] == "b=2")
        fields["cookie"] = nil
        #expect(fields["cookie"] == nil)
        #expect(fields["accept"] == "text/html")
        let fromDictionary = HeaderFields(["origin": "https://a.example", "host": "a.example"])
        #expect(fromDictionary["origin"] == "https://a.example")
        #expect(fromDictionary["host"] == "a.example")
    }
}

/// Fields as the web server passed them (FastCGI's `HTTP_*` names), read by their HTTP names.
@Suite struct ReceivedHeaderFieldsTests {
    /// The fields a server writes for `pairs` (names after `HTTP_`), as the FastCGI reader does.
    static func received(_ pairs: [(String, String)]) -> HeaderFields {
        let size = pairs.reduce(0) { $0 + 2 + 5 + $1.0.utf8.count + $1.1.utf8.count }
        var fields = HeaderFields()
        fields.received = ReceivedHeaderBytes(capacity: ReceivedHeaderBytes.capacity(forParameterBytes: size)) {
            writer in
            for (name, value) in pairs {
                Array((name + value).utf8).withUnsafeBytes {
                    writer.append(nameAndValue: $0, nameCount: name.utf8.count)
                }
            }
        }
        return fields
    }

    @Test func aFieldIsReadByItsHTTPNameAndTheLastOfTwoWins() {
        let fields = Self.received([
            ("HOST", "a.example"), ("SEC_CH_UA_PLATFORM", "\"Linux\""), ("ACCEPT_ENCODING", "gzip"),
            ("ACCEPT_LANGUAGE", "zh-CN"), ("X_EMPTY", ""), ("COOKIE", "a=1"), ("COOKIE", "b=2"),
            ("ACCEPT", "text/html"), ("X_ONE_FETCH_SITE", "1"), ("X_TWO_FETCH_SITE", "2"),
        ])
        #expect(fields["host"] == "a.example")
        #expect(fields["sec-ch-ua-platform"] == "\"Linux\"")
        #expect(fields["accept-language"] == "zh-CN")  // as long as accept-encoding, written before it
        #expect(fields["accept"] == "text/html")
        #expect(fields["x-empty"] == "")
        #expect(fields["cookie"] == "b=2")
        #expect(fields["x-one-fetch-site"] == "1")  // its last eight bytes are another's
        #expect(fields["x-two-fetch-site"] == "2")
        #expect(fields["origin"] == nil)
        #expect(fields["acceptlanguage"] == nil)
        #expect(fields[""] == nil)
    }

    @Test func settingANameReplacesWhatTheServerSentAndNilRemovesIt() {
        var fields = Self.received([("COOKIE", "a=1"), ("ORIGIN", "https://a.example"), ("COOKIE", "b=2")])
        fields["cookie"] = "c=3"
        #expect(fields["cookie"] == "c=3")
        fields["cookie"] = nil
        #expect(fields["cookie"] == nil)
        fields["origin"] = nil
        #expect(fields["origin"] == nil)
        fields["content-type"] = "text/plain"
        #expect(fields["content-type"] == "text/plain")
    }

    @Test func noFieldsReadAsNone() {
        let fields = Self.received([])
        #expect(fields["cookie"] == nil)
    }
}
