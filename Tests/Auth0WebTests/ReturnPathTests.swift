import Auth0Web
import Testing

@Suite struct ReturnPathTests {
    @Test(arguments: ["/", "/mini/app?x=1", "/logged-out#top", "/a/b/c"])
    func relativePathsAreKept(_ path: String) { #expect(ReturnPath.sanitize(path) == path) }

    @Test(arguments: [
        "//evil.example", "https://evil.example", "/\\evil.example", "\\\\evil", "/%2Fevil.example", "/%5cevil",
        "javascript:alert(1)", "evil", "", "/\tx", "/a b", "/%0d%0aSet-Cookie:x",
    ])
    func offSiteOrOddPathsBecomeHome(_ path: String) { #expect(ReturnPath.sanitize(path) == "/") }
}
