import Auth0Web
import Foundation
import SQLiteStore
import Web

/// `session-bench ledger-start N`: how long a worker takes to read a session ledger of N entries
/// before it serves, the entries as one person's script makes them ("Log out everywhere else"
/// posted N times from one session, as review 3 did), in a SQLite store as `make run` has it.
/// Prints the seconds and what the worker then holds.
func ledgerStartBench(entries: Int) throws {
    let folder = NSTemporaryDirectory() + "ledger-start-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = try SQLiteSharedStore(path: folder + "/ledger.sqlite3")
    let now = Int64(Clock.system.now())
    let kept = "kept-session-public-id"
    for press in 0..<entries {
        let before = now - Int64(entries) + Int64(press)
        let entry = EndedSessions.Entry.personExcept("auth0|hoarder", before: before, keep: kept, until: now + 86_400)
        try store.append(entry.encoded, keepUntil: Double(now + 86_400))
    }
    let ledger = try SessionLedger(
        store: store, retentionSeconds: 7 * 86_400, secrets: [String(repeating: "s", count: 64)],
        events: NoAuth0Events())
    let start = ContinuousClock.now
    ledger.startFollowing()
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print(
        String(
            format: "ledger start with %d entries: %.2f s (entries gauge %d)", entries, seconds,
            ledger.rememberedEntries))
}
