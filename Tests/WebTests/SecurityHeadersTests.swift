import Testing
import Web

@Suite struct SecurityHeadersTests {
    @Test func addsEveryHeaderAndNoStoreByDefault() {
        var response = Response.html([])
        SecurityHeaders(formTargets: ["https://tenant.example"]).apply(to: &response)
        let csp = response.header("content-security-policy") ?? ""
        #expect(csp.contains("script-src 'none'"))
        #expect(csp.contains("frame-ancestors 'none'"))
        #expect(csp.contains("form-action 'self' https://tenant.example"))
        #expect(!csp.contains("unsafe-inline"))
        #expect(response.header("X-Content-Type-Options") == "nosniff")
        #expect(response.header("Referrer-Policy") == "same-origin")
        #expect(response.header("Cache-Control") == "no-store")
        #expect(response.header("Cross-Origin-Resource-Policy") == "same-origin")
        #expect(response.header("Permissions-Policy")?.contains("camera=()") == true)
        #expect(response.header("Permissions-Policy")?.contains("geolocation=()") == true)
    }

    @Test func keepsWhatTheResponseSetItself() {
        var response = Response.text("ok")
        response.add("Cache-Control", "public, max-age=60")
        SecurityHeaders().apply(to: &response)
        #expect(response.allHeaders.filter { $0.name == "Cache-Control" }.map(\.value) == ["public, max-age=60"])
        #expect(response.header("X-Frame-Options") == "DENY")
        var framed = Response.text("ok")
        framed.add("X-Frame-Options", "SAMEORIGIN")
        framed.add("Cache-Control", "public, max-age=60")
        SecurityHeaders().apply(to: &framed)
        #expect(framed.allHeaders.filter { $0.name == "X-Frame-Options" }.map(\.value) == ["SAMEORIGIN"])
        #expect(framed.allHeaders.filter { $0.name == "Cache-Control" }.map(\.value) == ["public, max-age=60"])
        #expect(framed.header("Referrer-Policy") == "same-origin")
    }

    /// A response with a policy of its own names who may frame it there (`frame-ancestors`):
    /// no `X-Frame-Options: DENY` is added to contradict it; every other field still is.
    @Test func aPolicyOfItsOwnSaysWhoMayFrameIt() {
        var response = Response.text("")
        response.add("Content-Security-Policy", "default-src 'none'; frame-ancestors https://sso.example.com")
        SecurityHeaders().apply(to: &response)
        #expect(response.header("X-Frame-Options") == nil)
        #expect(response.allHeaders.filter { $0.name == "Content-Security-Policy" }.count == 1)
        #expect(response.header("Referrer-Policy") == "same-origin" && response.header("Cache-Control") == "no-store")
    }

    /// A field is found by its name in any case; a name only as long as one of them is not it.
    @Test func aFieldIsKnownByItsNameInAnyCaseAndNotByItsLength() {
        var response = Response.text("ok")
        response.add("cache-control", "public, max-age=60")
        response.add("X-Frame-Optionz", "ALLOWALL")
        SecurityHeaders().apply(to: &response)
        #expect(
            response.allHeaders.filter { $0.name.lowercased() == "cache-control" }.map(\.value) == [
                "public, max-age=60"
            ])
        #expect(response.header("X-Frame-Options") == "DENY")
    }
}
