import Auth0Web
import Foundation
import Locking
import Testing
import Web

/// Seeded random-input loops over the parsers that face the network: cookie opening, form and
/// query decoding, cookie headers and token parsing. Each runs for FUZZ_SECONDS (default 2;
/// `make fuzz` runs longer) and must neither crash nor accept what it should refuse.
@Suite struct FuzzTests {
    static let seconds = Double(ProcessInfo.processInfo.environment["FUZZ_SECONDS"] ?? "") ?? 2
    static let seed = UInt64(ProcessInfo.processInfo.environment["FUZZ_SEED"] ?? "") ?? 0x5EED

    /// A small, fast, reproducible generator (SplitMix64).
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Mutations of a seed: flipped, dropped, inserted and duplicated bytes, or pure noise.
    static func mutate(_ seed: [UInt8], _ rng: inout Generator) -> [UInt8] {
        var bytes = seed
        switch Int.random(in: 0..<6, using: &rng) {
        case 0 where !bytes.isEmpty:
            bytes[Int.random(in: 0..<bytes.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
        case 1 where !bytes.isEmpty: bytes.removeSubrange(Int.random(in: 0..<bytes.count, using: &rng)...)
        case 2: bytes.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...bytes.count, using: &rng))
        case 3: bytes += bytes.prefix(Int.random(in: 0...bytes.count, using: &rng))
        case 4: bytes = (0..<Int.random(in: 0..<300, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        default: bytes = Array(bytes.shuffled(using: &rng).prefix(Int.random(in: 0...bytes.count, using: &rng)))
        }
        return bytes
    }

    /// Runs `body` on mutations until the time is up; returns how many inputs were tried.
    @discardableResult
    static func loop(_ seeds: [[UInt8]], _ body: ([UInt8]) throws -> Void) rethrows -> Int {
        var rng = Generator(state: seed)
        let deadline = Date().addingTimeInterval(seconds)
        var count = 0
        while Date() < deadline {
            for _ in 0..<200 {
                try body(mutate(seeds[Int.random(in: 0..<seeds.count, using: &rng)], &rng))
                count += 1
            }
        }
        return count
    }

    @Test func sessionCookiesNeverOpenAlteredValues() throws {
        let clock = Clock { 1_700_000_000 }
        let store = try SessionCookies(
            secure: false, secrets: [String(repeating: "f", count: 32)], clock: clock, accessTokenPath: "/affirmation")
        let session = Session(
            profile: .init(sub: "auth0|1", name: "N", email: "e@x", emailVerified: true, picture: "", updatedAt: ""),
            accessToken: AccessToken(value: "AT", expiresAt: 1_700_086_400), refreshToken: nil, tenantSessionID: nil,
            csrfToken: "c", createdAt: 1_700_000_000)
        let sealed = try store.store(session)
        let (good, goodToken) = (sealed[0].value, sealed[1].value)
        let tried = Self.loop([Array(good.utf8)]) { bytes in
            let cookies = Cookies(header: "mds=" + String(decoding: bytes, as: UTF8.self))
            // Whatever opens must carry exactly the sealed bytes (base64's unused trailing bits
            // and cookie-header separators may vary the text, never the content).
            if store.load(from: cookies).session != nil {
                #expect(Base64URL.decode(cookies["mds"] ?? "") == Base64URL.decode(good))
            }
        }
        #expect(tried > 100)
        let triedTokens = Self.loop([Array(goodToken.utf8)]) { bytes in
            let cookies = Cookies(header: "mds=\(good); mda=" + String(decoding: bytes, as: UTF8.self))
            if store.load(from: cookies, includingAccessToken: true).session?.accessToken != nil {
                #expect(Base64URL.decode(cookies["mda"] ?? "") == Base64URL.decode(goodToken))
            }
        }
        #expect(triedTokens > 100)
    }

    @Test func formDecodingEitherRefusesOrRoundTrips() {
        let seeds = ["a=1&b=two+words&c=%E2%9C%93", "csrf=abc&affirmation=%3Cb%3E&action=save", "x=%zz&=&&y"].map {
            Array($0.utf8)
        }
        Self.loop(seeds) { bytes in
            do {
                let form = try FormData(urlEncoded: bytes)
                let again = try FormData(
                    urlEncoded: Array(PercentEncoding.formEncode(form.pairs.map { ($0.name, $0.value) }).utf8))
                #expect(again == form)
                #expect(form.pairs.allSatisfy { !$0.name.utf8.contains(0) && !$0.value.utf8.contains(0) })
            } catch let error as WebError {
                #expect(error.status == 400)
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    @Test func cookieHeadersParseToTokensOnly() {
        let seeds = ["mds=abc; mdtx.x=y; devtenant_sso=z", "a=\"q\"; ;;b=; c"].map { Array($0.utf8) }
        Self.loop(seeds) { bytes in
            let cookies = Cookies(header: String(decoding: bytes, as: UTF8.self))
            #expect(cookies.pairs.allSatisfy { !$0.name.isEmpty && $0.name.utf8.allSatisfy(SetCookie.isTokenByte) })
        }
    }

    @Test func tokenParsingNeverCrashes() {
        let token =
            "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6ImsifQ.eyJzdWIiOiJhdXRoMHwxIiwiYXVkIjpbImEiLCJiIl19.c2lnbmF0dXJl"
        Self.loop([Array(token.utf8)]) { bytes in
            if let jwt = JWT(String(decoding: bytes, as: UTF8.self)) {
                #expect(jwt.header.object != nil)
                #expect(jwt.claims.object != nil)
                _ = jwt.audiences
            }
        }
    }

    @Test func returnPathsNeverLeaveTheSite() {
        let seeds = ["/a/b?c=d", "//evil", "/\\evil", "/%2f%2fevil", "https://evil"].map { Array($0.utf8) }
        Self.loop(seeds) { bytes in
            let path = ReturnPath.sanitize(String(decoding: bytes, as: UTF8.self))
            let bytes = Array(path.utf8)  // bytes, not Characters: "/" + a combining mark is still a path
            #expect(bytes.first == UInt8(ascii: "/"))
            #expect(bytes.count == 1 || (bytes[1] != UInt8(ascii: "/") && bytes[1] != UInt8(ascii: "\\")))
        }
    }

    /// JSON from outside is decoded on serving threads with 1 MiB stacks, so the loop runs on
    /// one: nesting past the limit must be refused before the recursive decoder sees it, and
    /// what is accepted must read back the same.
    @Test func jsonDecodingRefusesDeepNestingAndRoundTrips() throws {
        let seedsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Corpus/json")
        let seeds = try FileManager.default.contentsOfDirectory(atPath: seedsFolder.path).filter {
            $0.hasPrefix("json-")
        }
        .map { Array(try Data(contentsOf: seedsFolder.appendingPathComponent($0))) }
        #expect(seeds.count >= 4)
        let failures = Lock<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            Self.loop(seeds) { bytes in
                do {
                    let value = try JSONValue.decode(bytes)
                    if JSONValue.parse(value.serialized()) != value {
                        failures.withLock { $0.append("does not round-trip: \(bytes.prefix(80))") }
                    }
                } catch {
                    // Refused: not JSON, or nested too deep. Either way, no crash.
                }
            }
            done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
        done.wait()
        #expect(failures.withLock { $0 }.isEmpty)
    }
}
