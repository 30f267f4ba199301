import Auth0Web
import Synchronization
import TestSupport
import Testing
import Web

@Suite struct CookieSealerTests {
    static let secretA = String(repeating: "a", count: 32)
    static let secretB = String(repeating: "b", count: 40)
    let time = ManualClock()

    @Test func roundTripKeepsPayloadAndTimes() throws {
        let sealer = try CookieSealer(secrets: [Self.secretA], purpose: "session", clock: time.clock)
        let text = try sealer.seal(Array("hello".utf8), name: "mds", lifetime: 60)
        let opened = try #require(sealer.open(text, name: "mds"))
        #expect(Array(opened.payload) == Array("hello".utf8))
        #expect(opened.issuedAt == 1_700_000_000)
        #expect(opened.expiresAt == 1_700_000_060)
        #expect(text.utf8.allSatisfy(SetCookie.isCookieOctet))
    }

    @Test func everyAlteredByteIsRefused() throws {
        let sealer = try CookieSealer(secrets: [Self.secretA], purpose: "session", clock: time.clock)
        let text = try sealer.seal(Array("payload".utf8), name: "mds", lifetime: 60)
        let sealed = try #require(Base64URL.decode(text))
        for index in sealed.indices {
            var altered = sealed
            altered[index] ^= 0x01
            #expect(sealer.open(Base64URL.encode(altered), name: "mds") == nil, "byte \(index)")
            // The thread's cipher context is reused: a refusal must leave it fit for the next cookie.
            #expect(sealer.open(text, name: "mds").map { Array($0.payload) } == Array("payload".utf8))
        }
    }

    @Test func truncatedOrGarbageIsRefused() throws {
        let sealer = try CookieSealer(secrets: [Self.secretA], purpose: "session", clock: time.clock)
        let text = try sealer.seal(Array("payload".utf8), name: "mds", lifetime: 60)
        for cut in [0, 1, 10, text.count - 1] {
            #expect(sealer.open(String(text.prefix(cut)), name: "mds") == nil)
        }
        for junk in ["", "!!!", "a", String(repeating: "A", count: 100), "not base64 at all"] {
            #expect(sealer.open(junk, name: "mds") == nil)
        }
    }

    @Test func anotherNameOrPurposeCannotOpenIt() throws {
        let session = try CookieSealer(secrets: [Self.secretA], purpose: "session", clock: time.clock)
        let transaction = try CookieSealer(secrets: [Self.secretA], purpose: "login-transaction", clock: time.clock)
        let text = try session.seal([1, 2, 3], name: "mds", lifetime: 60)
        #expect(session.open(text, name: "mds.0") == nil)
        #expect(transaction.open(text, name: "mds") == nil)
    }

    @Test func wrongKeyIsRefusedAndRotationOpensWithEveryKey() throws {
        let old = try CookieSealer(secrets: [Self.secretA], purpose: "session", clock: time.clock)
        let other = try CookieSealer(secrets: [Self.secretB], purpose: "session", clock: time.clock)
        let rotated = try CookieSealer(secrets: [Self.secretB, Self.secretA], purpose: "session", clock: time.clock)
        let sealedByOld = try old.seal([9], name: "mds", lifetime: 60)
        #expect(other.open(sealedByOld, name: "mds") == nil)
        #expect((rotated.open(sealedByOld, name: "mds")?.payload).map(Array.init) == [9])
        // The first secret seals: the old key alone cannot open what the rotated set seals.
        let sealedByRotated = try rotated.seal([7], name: "mds", lifetime: 60)
        #expect((other.open(sealedByRotated, name: "mds")?.payload).map(Array.init) == [7])
        #expect(old.open(sealedByRotated, name: "mds") == nil)
    }

    @Test func expiredIsRefused() throws {
        let sealer = try CookieSealer(secrets: [Self.secretA], purpose: "session", clock: time.clock)
        let text = try sealer.seal([1], name: "mds", lifetime: 60)
        time.advance(59)
        #expect(sealer.open(text, name: "mds") != nil)
        time.advance(1)
        #expect(sealer.open(text, name: "mds") == nil)
    }
}
