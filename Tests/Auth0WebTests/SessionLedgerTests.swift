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

    @Test func everywhereElseEndsThePersonsOtherSessionsUpToThatMoment() {
        var ended = EndedSessions()
        let kept = session("auth0|a", csrf: "kept")
        ended.apply(.personExcept("auth0|a", before: 1_700_000_100, keep: kept.publicID, until: .max))
        #expect(!ended.contains(kept))
        #expect(ended.contains(session("auth0|a", csrf: "other")))
        #expect(!ended.contains(session("auth0|a", csrf: "later", createdAt: 1_700_000_200)), "a later login goes on")
        #expect(!ended.contains(session("auth0|b", csrf: "other")), "another person is untouched")
    }

    @Test(arguments: [
        EndedSessions.Entry.session("id", until: 5),
        .personExcept("auth0|a", before: 3, keep: "kept", until: 9),
    ])
    func theNewEntriesGoThroughTheLog(_ entry: EndedSessions.Entry) {
        #expect(EndedSessions.Entry(encoded: entry.encoded) == entry)
    }
}
