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
