import Auth0Web
import Web

// libFuzzer target over the parsers that face the network. The first byte picks the parser (6:
// JSON; seeds in Tests/FuzzTests/Seeds include nesting far past the limit),
// the rest is its input. Built by `make fuzz` with `--sanitize=fuzzer -Xswiftc -DFUZZING`
// (libFuzzer brings main); a plain build makes a tool that replays input files through it.

// swift-format-ignore: NeverUseForceTry
private let store = try! SessionCookies(
    secure: false, secrets: [String(repeating: "f", count: 32)], clock: Clock { 1_700_000_000 },
    accessTokenPath: "/affirmation")
// swift-format-ignore: NeverUseForceTry
private let sealedPair = try! store.store(
    Session(
        profile: .init(sub: "auth0|1", name: "N", email: "e@x", emailVerified: true, picture: "", updatedAt: ""),
        accessToken: AccessToken(value: "AT", expiresAt: 1_700_086_400), refreshToken: nil, tenantSessionID: nil,
        csrfToken: "c", createdAt: 1_700_000_000)
).map(\.value)
private let (sealed, sealedAccessToken) = (sealedPair[0], sealedPair[1])

/// Runs one input; traps (a finding) when an invariant breaks.
func fuzzOne(_ data: [UInt8]) {
    guard let selector = data.first else { return }
    let input = Array(data.dropFirst())
    let text = String(decoding: input, as: UTF8.self)
    switch selector % 7 {
    case 0:
        let cookies = Cookies(header: "mds=" + text)
        if store.load(from: cookies).session != nil {
            precondition(Base64URL.decode(cookies["mds"] ?? "") == Base64URL.decode(sealed), "an altered cookie opened")
        }
    case 5:
        let cookies = Cookies(header: "mds=\(sealed); mda=" + text)
        if store.load(from: cookies, includingAccessToken: true).session?.accessToken != nil {
            precondition(
                Base64URL.decode(cookies["mda"] ?? "") == Base64URL.decode(sealedAccessToken),
                "an altered access-token cookie opened")
        }
    case 1:
        if let form = try? FormData(urlEncoded: input) {
            let again = try? FormData(
                urlEncoded: Array(PercentEncoding.formEncode(form.pairs.map { ($0.name, $0.value) }).utf8))
            precondition(again == form, "form decoding does not round-trip")
        }
    case 2:
        for pair in Cookies(header: text).pairs {
            precondition(!pair.name.isEmpty && pair.name.utf8.allSatisfy(SetCookie.isTokenByte), "bad cookie name")
        }
    case 3:
        if let jwt = JWT(text) { _ = jwt.audiences }
    case 6:
        // JSON from outside (token answers, metadata, request bodies): deep nesting is refused
        // before decoding, and what is accepted reads back the same.
        if let value = try? JSONValue.decode(input) {
            precondition(JSONValue.parse(value.serialized()) == value, "JSON does not round-trip")
        }
    default:
        let path = ReturnPath.sanitize(text)
        // Bytes, not characters: "/" plus a combining mark is one Character but still a path.
        let bytes = Array(path.utf8)
        precondition(
            bytes.first == UInt8(ascii: "/")
                && (bytes.count == 1 || (bytes[1] != UInt8(ascii: "/") && bytes[1] != UInt8(ascii: "\\"))),
            "return path left the site")
    }
}

#if FUZZING
    /// libFuzzer's entry point: feeds one input to the parser its first byte selects.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
        fuzzOne(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
#else
    import Foundation

    /// Replays input files (e.g. a crash libFuzzer saved) through the same checks.
    @main
    struct ReplayInputs {
        static func main() throws {
            for path in CommandLine.arguments.dropFirst() {
                fuzzOne(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
                print("ok: \(path)")
            }
        }
    }
#endif
