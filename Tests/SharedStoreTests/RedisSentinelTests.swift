import Foundation
import RedisStore
import TestSupport
import Testing
import Web

/// The Redis store behind Redis Sentinel, with Debian's `redis-server` and `redis-sentinel`
/// really started: it writes to the primary the sentinel names, follows a failover to the replica
/// that takes over, and never writes to a replica.
@Suite(.serialized) struct RedisSentinelTests {
    /// Where the store keeps its keys (its default prefix).
    static let prefix = "metadata-demo:ledger:"

    /// What `redis-cli` answers on `port` (the tests' view of the servers, beside the store's).
    private static func cli(_ port: Int, _ arguments: [String]) throws -> String {
        try ChildProcess.output("/usr/bin/redis-cli", ["-p", String(port)] + arguments).output
    }

    @Test func theStoreFollowsAFailoverToTheReplicaThatTakesOver() throws {
        // Redis 7 waits 5 s before a diskless sync, for more replicas to join it: the wait for the
        // replica to hold what was written raced that delay on a busy machine. None here.
        let primary = try RedisServer(extra: ["--repl-diskless-sync-delay", "0"])
        let replica = try RedisServer(extra: ["--replicaof", "127.0.0.1", String(primary.port)])
        let sentinel = try RedisServer(sentinelFor: "ledger", primaryPort: primary.port)
        defer { [sentinel, replica, primary].forEach { $0.stop() } }
        let store = RedisSharedStore(
            address: try RedisAddress(url: "redis-sentinel://127.0.0.1:\(sentinel.port)/ledger/0"), timeoutSeconds: 0.5)
        try store.set("before", Array("one".utf8), ttl: 60)
        #expect(try Self.cli(primary.port, ["GET", Self.prefix + "before"]) == "one\n", "written to the primary")
        #expect(store.failoversSeen == 0)
        // The sentinel learns of the replica from the primary's INFO (at once, then every 10 s).
        #expect(
            eventually(within: 15) {
                (try? Self.cli(sentinel.port, ["SENTINEL", "replicas", "ledger"]))?.contains(String(replica.port))
                    == true
            })
        #expect(
            eventually(within: 15) { (try? Self.cli(replica.port, ["GET", Self.prefix + "before"])) == "one\n" })

        primary.stop()  // SIGKILL, as a crash
        let killed = Date()
        #expect(eventually(within: 20) { (try? store.set("after", Array("two".utf8), ttl: 60)) != nil })
        let failover = Date().timeIntervalSince(killed)
        #expect(try Self.cli(replica.port, ["ROLE"]).hasPrefix("master"))
        #expect(try Self.cli(replica.port, ["GET", Self.prefix + "after"]) == "two\n")
        #expect(try store.get("before") == Array("one".utf8), "what was written before the failover is still there")
        #expect(store.failoversSeen == 1, "the metrics count the failover this worker saw")
        print(
            "sentinel failover: first write accepted \(String(format: "%.1f", failover)) s after the primary was killed"
        )
    }

    /// A server that is a replica refuses writes (READONLY); the store drops that connection, and
    /// with Sentinel it would ask again. Asked directly, it says what failed.
    @Test func aReplicaIsNeverWrittenTo() throws {
        let primary = try RedisServer()
        let replica = try RedisServer(extra: ["--replicaof", "127.0.0.1", String(primary.port)])
        defer { [replica, primary].forEach { $0.stop() } }
        let direct = RedisSharedStore(address: try RedisAddress(url: replica.url), timeoutSeconds: 0.5)
        #expect(performing: { try direct.set("k", [1], ttl: 60) }, throws: { "\($0)".contains("READONLY") })
    }

    @Test func sentinelAddressesAreRead() throws {
        let address = try RedisAddress(url: "redis-sentinel://:pw@10.0.0.1,10.0.0.2:26380,[::1]/ledger/3")
        #expect(address.sentinels.map(\.description) == ["10.0.0.1:26379", "10.0.0.2:26380", "::1:26379"])
        #expect(address.service == "ledger" && address.database == 3 && address.password == "pw")
        #expect(address.name == "Redis ledger (Sentinel)")
        for bad in ["redis-sentinel://10.0.0.1", "redis-sentinel://10.0.0.1/", "redis://a,b/0"] {
            #expect(throws: SharedStoreError.self) { try RedisAddress(url: bad) }
        }
    }
}
