import Synchronization

/// The bytes all connections of the worker hold of requests still arriving, counted against one
/// budget (`FastCGIServer.Options.maxHeldBytes`): a web server sends each request whole at once,
/// so only a peer holding many requests open gets near it, and the worker's memory stays
/// bounded however many processes such a peer forks.
final class HeldBytes: Sendable {
    private let total = Atomic<Int>(0)

    /// The bytes held now.
    var current: Int { total.load(ordering: .relaxed) }

    /// Counts `count` more bytes held (fewer, when negative).
    func add(_ count: Int) {
        if count != 0 { total.add(count, ordering: .relaxed) }
    }
}
