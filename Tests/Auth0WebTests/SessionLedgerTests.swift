import Foundation
import TestSupport
import Testing
import Web

@testable import Auth0Web

/// The ledger over a store that comes back without its log: the workers that remember write it
/// again, so a worker started afterwards still refuses those sessions.
@Suite struct SessionLedgerGenerationTests {
    private final class Resets: Auth0Events, @unchecked Sendable {
        private let lock = NSLock()
        private var rewritten: [Int] = []
        func ledgerStoreReset(rewritten count: Int) { lock.withLock { rewritten.append(count) } }
        var seen: [Int] { lock.withLock { rewritten } }
    }

    private func ledger(_ store: MemorySharedStore, events: any Auth0Events = NoAuth0Events()) throws -> SessionLedger {
        try SessionLedger(store: store, retentionSeconds: 3600, secrets: [TestSettings.cookieSecret], events: events)
    }

    private func session(_ sub: String, csrf: String, sid: String? = nil) -> Session {
        Session(
            profile: .init(
                sub: sub, name: sub, email: sub + "@example.com", emailVerified: true, picture: "", updatedAt: ""),
            accessToken: nil, refreshToken: nil, tenantSessionID: sid, csrfToken: csrf,
            createdAt: Int64(Date().timeIntervalSince1970) - 10)
    }

    @Test func aLedgerStartedAfterTheStoreCameBackEmptyStillRefusesEndedSessions() throws {
        let store = MemorySharedStore()
        let resets = Resets()
        let running = try ledger(store, events: resets)
        running.startFollowing()
        let loggedOut = session("auth0|a", csrf: "logged-out")
        let tenantEnded = session("auth0|b", csrf: "b", sid: "sid-b")
        let personEnded = session("auth0|c", csrf: "c")
        running.endLogin(loggedOut)
        running.endTenantSession("sid-b")
        running.endSessions(of: "auth0|c", issuedBefore: Int64(Date().timeIntervalSince1970))

        store.wipe()
        #expect(eventually { resets.seen == [3] }, "rewritten: \(resets.seen)")

        let started = try ledger(store)
        started.startFollowing()
        #expect(started.hasEnded(loggedOut) && started.hasEnded(tenantEnded) && started.hasEnded(personEnded))
        #expect(!started.hasEnded(session("auth0|a", csrf: "another login")))
    }

    @Test func whatTheLogStillHoldsIsNotWrittenTwice() throws {
        let store = MemorySharedStore()
        let resets = Resets()
        let first = try ledger(store, events: resets)
        let second = try ledger(store)
        first.startFollowing()
        second.startFollowing()
        store.wipe()
        // The second worker's logout lands in the new log before the first notices the reset.
        second.endLogin(session("auth0|d", csrf: "after the reset"))
        #expect(eventually { !resets.seen.isEmpty })
        #expect(resets.seen.allSatisfy { $0 == 0 }, "\(resets.seen)")
        #expect(first.hasEnded(session("auth0|d", csrf: "after the reset")))
    }

    /// Review 3, item 2: a store that comes back from an older snapshot keeps its generation
    /// mark, so only the log's own loss tells: the worker that read the lost logout writes it
    /// back, and a worker started afterwards refuses that session.
    @Test func aStoreBackFromAnOlderSnapshotGetsItsLostLogoutsBack() throws {
        let store = MemorySharedStore()
        let resets = Resets()
        let running = try ledger(store, events: resets)
        running.startFollowing()
        let before = store.snapshot()
        let loggedOut = session("auth0|h", csrf: "logged out after the snapshot")
        running.endLogin(loggedOut)
        #expect(eventually { running.lastRead != nil }, "the logout was not read back")
        store.restore(before)
        #expect(eventually { resets.seen == [1] }, "rewritten: \(resets.seen)")
        let started = try ledger(store)
        started.startFollowing()
        #expect(started.hasEnded(loggedOut))
    }

    /// Issue 49, L2: the check gave up once the newest event a worker read had expired, though
    /// an older logout it had read still stood; a store restored from a copy older than both then
    /// went unnoticed and the logged-out cookie opened pages after a reload. Now the newest event
    /// still in force is compared, whatever the age of the newest.
    @Test func aStoreBackFromAnOlderSnapshotIsNoticedAfterTheNewestEventExpired() throws {
        let time = ManualClock(Date().timeIntervalSince1970)
        let store = MemorySharedStore(clock: time.clock)
        let resets = Resets()
        let ledger = { (events: any Auth0Events) throws -> SessionLedger in
            try SessionLedger(
                store: store, retentionSeconds: 3600, secrets: [TestSettings.cookieSecret], clock: time.clock,
                events: events)
        }
        let running = try ledger(resets)
        running.startFollowing()
        let before = store.snapshot()
        let now = Int64(time.clock.now())
        var lasting = session("auth0|k", csrf: "logged out, an hour to go")
        lasting.createdAt = now - 10
        running.endLogin(lasting)
        #expect(eventually { running.lastRead != nil }, "the first logout was not read back")
        let first = running.lastRead?.event
        var brief = session("auth0|l", csrf: "logged out, seconds to go")
        brief.createdAt = now - 3590  // its entry stands ten seconds
        running.endLogin(brief)
        #expect(eventually { running.lastRead?.event != first }, "the second was not read back")
        time.advance(30)  // the newest event read has expired; the first logout stands
        store.restore(before)
        #expect(eventually { resets.seen == [1] }, "rewritten: \(resets.seen)")
        let started = try ledger(NoAuth0Events())
        started.startFollowing()
        #expect(started.hasEnded(lasting))
    }

    /// Review 3, item 2, SQLite's way: the restored file numbers new events again from its own
    /// last one, so the next logout (another worker's) takes the number the follower already
    /// read; it was skipped. Now the follower sees another event at its place and reads the
    /// log again: both logouts hold everywhere.
    @Test func eventsNumberedAgainAfterARestoreAreNotSkipped() throws {
        let store = MemorySharedStore()
        let resets = Resets()
        let follower = try ledger(store, events: resets)
        let other = try ledger(store)
        follower.startFollowing()
        let before = store.snapshot()
        let first = session("auth0|i", csrf: "first")
        follower.endLogin(first)
        #expect(eventually { follower.lastRead != nil })
        store.restore(before)
        let second = session("auth0|j", csrf: "second, numbered as the first was")
        other.endLogin(second)  // written straight to the store: `other` does not follow
        #expect(eventually { follower.hasEnded(second) }, "the renumbered logout was skipped")
        #expect(eventually { !resets.seen.isEmpty })
        let started = try ledger(store)
        started.startFollowing()
        #expect(started.hasEnded(first) && started.hasEnded(second))
    }

    /// Review 3, item 3: "Log out everywhere else" once a minute per session at most, and the
    /// entries gauge counts the log's entries (it counted people: 1.0 after 20,000 posts).
    @Test func endingOthersIsOnceAMinutePerSessionAndTheGaugeCountsEntries() throws {
        let store = MemorySharedStore()
        let worker = try ledger(store)
        worker.startFollowing()
        let (phone, laptop, tablet) = (
            session("auth0|f", csrf: "phone"), session("auth0|f", csrf: "laptop"), session("auth0|f", csrf: "tablet")
        )
        #expect(worker.endSessions(of: "auth0|f", except: phone))
        #expect(!worker.endSessions(of: "auth0|f", except: phone), "again within the minute")
        #expect(worker.endSessions(of: "auth0|f", except: laptop))
        #expect(worker.endSessions(of: "auth0|f", except: tablet))
        worker.endLogin(session("auth0|g", csrf: "g"))
        #expect(eventually { worker.rememberedEntries == 4 }, "the gauge reads \(worker.rememberedEntries)")
        let started = try ledger(store)
        started.startFollowing()
        #expect(started.rememberedEntries == 4)
        // The bytes gauge follows what the entries hold: a long sid costs its length.
        let bytes = started.rememberedBytes
        #expect(bytes > 4 * 20 && bytes < 4 * 200, "\(bytes) bytes")
        worker.endTenantSession(String(repeating: "s", count: 10_000))
        #expect(eventually { started.rememberedBytes > bytes + 10_000 }, "the gauge reads \(started.rememberedBytes)")
    }

    /// An end of a person's sessions reaches those begun "at or before" its second: a login that
    /// completes in that second, after the end, stands (before, the person sent to log in again
    /// was sent round the login until the second passed: Chromium stopped at "too many
    /// redirects"), and an end in the same second after that login still ends it.
    @Test func aLoginInTheSecondOfAnEndStandsAndTheNextEndReachesIt() throws {
        let time = ManualClock()
        let now = Int64(1_700_000_000)
        let worker = try SessionLedger(
            store: MemorySharedStore(), retentionSeconds: 3600, secrets: [TestSettings.cookieSecret],
            clock: time.clock, events: NoAuth0Events())
        func login(_ csrf: String) -> Session {
            Session(
                profile: .init(sub: "auth0|h", name: "", email: "", emailVerified: true, picture: "", updatedAt: ""),
                accessToken: nil, refreshToken: nil, tenantSessionID: nil, csrfToken: csrf,
                createdAt: worker.loginTime(of: "auth0|h", now: now))
        }
        let before = login("before")
        worker.endSessions(of: "auth0|h", issuedBefore: now)  // the provider's back-channel logout
        #expect(worker.hasEnded(before))
        let after = login("after")
        #expect(!worker.hasEnded(after), "the login after the end stands")
        #expect(worker.loginTime(of: "auth0|i", now: now) == now, "another person's logins are not moved")

        worker.endSessions(of: "auth0|h", issuedBefore: now)  // another, in the same second
        #expect(worker.hasEnded(after))
        let kept = login("kept")
        let other = login("other")
        #expect(!worker.hasEnded(kept) && !worker.hasEnded(other))
        #expect(worker.endSessions(of: "auth0|h", except: kept))  // "Log out everywhere else", same second
        #expect(worker.hasEnded(other) && !worker.hasEnded(kept))
        #expect(!worker.hasEnded(login("again")), "and a login after that stands")
    }

    @Test func aFreshStoreIsNotTakenForALostOne() throws {
        let store = MemorySharedStore()
        let resets = Resets()
        let only = try ledger(store, events: resets)
        only.startFollowing()
        only.endLogin(session("auth0|e", csrf: "e"))
        usleep(1_200_000)
        #expect(resets.seen.isEmpty)
    }
}

/// Sessions ended from "Your sessions": one by its public id, or all of a person's but one.
@Suite struct EndedFromAnotherSessionTests {
    private func session(_ sub: String, csrf: String, createdAt: Int64 = 1_700_000_000) -> Session {
        Session(
            profile: .init(sub: sub, name: sub, email: "", emailVerified: true, picture: "", updatedAt: ""),
            accessToken: nil, refreshToken: nil, tenantSessionID: nil, csrfToken: csrf, createdAt: createdAt)
    }

    @Test func oneSessionEndsByItsPublicIDAndNoOtherDoes() {
        var ended = EndedSessions()
        let phone = session("auth0|a", csrf: "phone")
        ended.apply(.session(phone.publicID, until: .max))
        #expect(ended.contains(phone))
        #expect(!ended.contains(session("auth0|a", csrf: "laptop")))
        #expect(phone.publicID != "phone" && !phone.publicID.contains("phone"), "the id is not the token")
    }

    /// A page view's public id is made once per login while a "Your sessions" end lives (it is a
    /// SHA-256), and two logins whose tokens begin alike never share one.
    @Test func publicIDsAreRememberedPerLoginAndNeverShared() {
        var ended = EndedSessions()
        var memo = PublicIDMemo()
        let phone = session("auth0|a", csrf: "same-start-phone")
        let laptop = session("auth0|a", csrf: "same-start-laptop")
        ended.apply(.session(phone.publicID, until: .max))
        #expect(ended.contains(phone, publicIDs: &memo))
        #expect(!ended.contains(laptop, publicIDs: &memo))
        #expect(ended.contains(phone, publicIDs: &memo), "asked again")
        #expect(!ended.contains(laptop, publicIDs: &memo), "asked again")
    }

    @Test func everywhereElseEndsThePersonsOtherSessionsUpToThatMoment() {
        var ended = EndedSessions()
        let kept = session("auth0|a", csrf: "kept")
        ended.apply(.personExcept("auth0|a", before: 1_700_000_100, keep: kept.publicID, until: .max))
        #expect(!ended.contains(kept))
        #expect(ended.contains(session("auth0|a", csrf: "other")))
        #expect(!ended.contains(session("auth0|a", csrf: "later", createdAt: 1_700_000_200)), "a later login goes on")
        #expect(!ended.contains(session("auth0|b", csrf: "other")), "another person is untouched")
    }

    /// Ends from several kept sessions: a session is ended by the latest end that does not
    /// keep it, whichever order they came in (the two newest are kept apart per person).
    @Test(arguments: [false, true])
    func eachEndKeepsOnlyItsOwnSession(reversed: Bool) {
        var ended = EndedSessions()
        let (a, b) = (session("auth0|a", csrf: "a").publicID, session("auth0|a", csrf: "b").publicID)
        var ends: [EndedSessions.Entry] = [
            .personExcept("auth0|a", before: 1_700_000_050, keep: b, until: .max),
            .personExcept("auth0|a", before: 1_700_000_100, keep: a, until: .max),
        ]
        if reversed { ends.reverse() }
        for end in ends { ended.apply(end) }
        #expect(ended.contains(session("auth0|a", csrf: "a", createdAt: 1_700_000_040)), "ended by b's end")
        #expect(!ended.contains(session("auth0|a", csrf: "a", createdAt: 1_700_000_060)), "only its own end is later")
        #expect(ended.contains(session("auth0|a", csrf: "b", createdAt: 1_700_000_060)), "a's end ends b")
        #expect(!ended.contains(session("auth0|a", csrf: "b", createdAt: 1_700_000_120)))
        #expect(ended.contains(session("auth0|a", csrf: "c", createdAt: 1_700_000_090)))
        #expect(!ended.contains(session("auth0|a", csrf: "c", createdAt: 1_700_000_120)))
        #expect(ended.count == 2)
    }

    /// Review 3, item 3: one session pressing "Log out everywhere else" again and again is one
    /// end in memory, the latest; pruning keeps what is still in force.
    @Test func aThousandEndsFromOneSessionAreOneTheLatest() {
        var ended = EndedSessions()
        let kept = session("auth0|a", csrf: "kept").publicID
        for press in 0..<1000 {
            ended.apply(
                .personExcept("auth0|a", before: 1_700_000_000 + Int64(press), keep: kept, until: 2_000_000_000))
        }
        #expect(ended.count == 1)
        #expect(ended.contains(session("auth0|a", csrf: "other", createdAt: 1_700_000_999)))
        #expect(!ended.contains(session("auth0|a", csrf: "other", createdAt: 1_700_001_000)))
        ended.apply(.personExcept("auth0|a", before: 1_700_000_500, keep: "short", until: 1_900_000_000))
        ended.prune(now: 1_950_000_000)
        #expect(ended.count == 1 && ended.contains(session("auth0|a", csrf: "other", createdAt: 1_700_000_999)))
    }

    @Test(arguments: [
        EndedSessions.Entry.session("id", until: 5),
        .personExcept("auth0|a", before: 3, keep: "kept", until: 9),
    ])
    func theNewEntriesGoThroughTheLog(_ entry: EndedSessions.Entry) {
        #expect(EndedSessions.Entry(encoded: entry.encoded) == entry)
    }
}
