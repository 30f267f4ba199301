import Auth0Web
import Synchronization
import Testing
import Web

@Suite struct MetadataRulesTests {
    private func snapshot(_ app: String, user: String = "{}") -> MetadataSnapshot {
        MetadataSnapshot(
            document: UserMetadataDocument(
                userMetadata: JSONValue.parse(Array(user.utf8))!, appMetadata: JSONValue.parse(Array(app.utf8))!))
    }

    @Test func announcementNeedsTheBooleanTrueAndBothTexts() {
        let good =
            #"{"display_announcement":true,"announcement_text":"Tap","announcement_url":"https://example.com/a"}"#
        #expect(snapshot(good).announcement == Announcement(text: "Tap", url: "https://example.com/a"))
        for bad in [
            #"{"display_announcement":"true","announcement_text":"Tap","announcement_url":"https://e.com"}"#,
            #"{"display_announcement":1,"announcement_text":"Tap","announcement_url":"https://e.com"}"#,
            #"{"display_announcement":[true],"announcement_text":"Tap","announcement_url":"https://e.com"}"#,
            #"{"display_announcement":false,"announcement_text":"Tap","announcement_url":"https://e.com"}"#,
            #"{"display_announcement":true,"announcement_text":"","announcement_url":"https://e.com"}"#,
            #"{"display_announcement":true,"announcement_text":5,"announcement_url":"https://e.com"}"#,
            #"{"display_announcement":true,"announcement_text":"Tap"}"#,
            #"{}"#,
        ] {
            #expect(snapshot(bad).announcement == nil, "\(bad)")
        }
    }

    @Test func onlyAbsoluteHTTPLinksAreShown() {
        var refused: [String] = []
        for url in [
            "javascript:alert(1)", "JAVASCRIPT:alert(1)", "data:text/html,x", "//evil.example", "/relative",
            "https://", "http:/x", "https://exa mple.com", "vbscript:x", " https://e.com",
        ] {
            let app = #"{"display_announcement":true,"announcement_text":"Tap","announcement_url":"\#(url)"}"#
            let document = UserMetadataDocument(
                userMetadata: .object([:]), appMetadata: JSONValue.parse(Array(app.utf8))!)
            #expect(MetadataSnapshot(document: document) { refused.append($0) }.announcement == nil, "\(url)")
        }
        #expect(refused.count == 10)
        #expect(MetadataSnapshot.isSafeLink("http://example.com"))
        #expect(MetadataSnapshot.isSafeLink("HTTPS://Example.com/x?y=1#z"))
    }

    @Test func affirmationMustBeAString() {
        #expect(snapshot("{}", user: #"{"personal_affirmation":"Hi"}"#).affirmation == "Hi")
        #expect(snapshot("{}", user: #"{"personal_affirmation":42}"#).affirmation == "")
        #expect(snapshot("{}", user: #"{"personal_affirmation":null}"#).affirmation == "")
    }
}
