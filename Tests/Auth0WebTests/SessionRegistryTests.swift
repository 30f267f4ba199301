import Auth0Web
import Foundation
import TestSupport
import Testing
import Web

/// "Your sessions"' list: what login, use and logout write, how often a use is written, and
/// what happens past the bound.
@Suite struct SessionRegistryTests {
    private func session(_ csrf: String, sub: String = "auth0|a", createdAt: Int64) -> Session {
        Session(
            profile: .init(sub: sub, name: sub, email: "", emailVerified: true, picture: "", updatedAt: ""),
            accessToken: nil, refreshToken: nil, tenantSessionID: nil, csrfToken: csrf, createdAt: createdAt)
    }

    /// The list once the registry's thread has written what was queued (bounded wait): it holds
    /// `count` entries, and `last` when given (the last queued: one thread writes in order, so
    /// everything before it is written too).
    private func list(
        _ registry: SessionRegistry, _ sub: String = "auth0|a", count: Int, last: String? = nil
    ) throws -> [SessionRegistry.Entry] {
        var entries: [SessionRegistry.Entry] = []
        for _ in 0..<250 {
            entries = try registry.sessions(of: sub)
            if entries.count == count, last.map({ id in entries.contains { $0.id == id } }) ?? true { break }
            usleep(20_000)
        }
        return entries
    }

    @Test func aLoginIsListedAndASessionFromBeforeTheListIsMarkedEarlier() throws {
        let time = ManualClock(Double(Int64(Date().timeIntervalSince1970)))
        let now = Int64(time.clock.now())
        let registry = SessionRegistry(
            store: MemorySharedStore(), absoluteLifetime: 86_400, rollingLifetime: 3600, clock: time.clock,
            events: NoAuth0Events())
        let laptop = session("laptop-token-1234", createdAt: now - 60)
        let old = session("older-token-5678", createdAt: now - 7200)
        registry.loggedIn(laptop, device: DeviceName(browser: "Firefox", system: "Windows"))
        #expect(registry.isDue(csrfToken: old.csrfToken))
        registry.used(
            old, userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) Version/17.6 Safari/604.1")
        let entries = try list(registry, count: 2)
        #expect(entries.map(\.id) == [laptop.publicID, old.publicID], "newest first")
        #expect(entries[0].seenAtLogin && !entries[1].seenAtLogin)
        #expect(entries[1].device == DeviceName(browser: "Safari", system: "iPhone"))
        #expect(entries[1].startedAt == now - 7200)
        registry.loggedOut(laptop)
        #expect(try registry.sessions(of: "auth0|a").map(\.id) == [old.publicID])
        #expect(try registry.sessions(of: "auth0|b").isEmpty, "another person's list is apart")
    }

    @Test func aUseIsWrittenAtMostEveryFiveMinutes() {
        let time = ManualClock()
        let registry = SessionRegistry(
            store: MemorySharedStore(), absoluteLifetime: 86_400, rollingLifetime: 3600, clock: time.clock,
            events: NoAuth0Events())
        #expect(registry.isDue(csrfToken: "token-a-0123456789"))
        #expect(!registry.isDue(csrfToken: "token-a-0123456789"))
        #expect(registry.isDue(csrfToken: "token-b-0123456789"), "another session is its own")
        time.advance(299)
        #expect(!registry.isDue(csrfToken: "token-a-0123456789"))
        time.advance(1)
        #expect(registry.isDue(csrfToken: "token-a-0123456789"))
    }

    @Test func pastFiftyTheSessionsThatEndFirstLeaveTheList() throws {
        let now = Int64(Date().timeIntervalSince1970)
        let registry = SessionRegistry(
            store: MemorySharedStore(), absoluteLifetime: 86_400, rollingLifetime: 86_400, events: NoAuth0Events())
        for index in 0..<(SessionRegistry.limit + 5) {
            registry.loggedIn(
                session("token-\(index)", createdAt: now - 1000 + Int64(index)),
                device: DeviceName(browser: nil, system: nil))
        }
        // Until the last login is written the list may briefly hold fifty with the oldest among them.
        let newest = session("token-\(SessionRegistry.limit + 4)", createdAt: 0).publicID
        let entries = try list(registry, count: SessionRegistry.limit, last: newest)
        #expect(entries.count == SessionRegistry.limit)
        #expect(!entries.contains { $0.id == session("token-0", createdAt: 0).publicID }, "the oldest left the list")
    }
}
