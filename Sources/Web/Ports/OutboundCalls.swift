import Synchronization

/// A request's count of outbound calls. It belongs to the request's scope: bound (a task-local
/// value) for exactly the extent of `counting`, on whichever thread answers the request, and
/// gone when the answer is made; nothing is reset by hand and nothing outlives the request.
public final class OutboundCalls: Sendable {
    @TaskLocal static var current: OutboundCalls?
    private let count = Atomic<Int>(0)

    private init() {}

    func add() { count.add(1, ordering: .relaxed) }

    /// Runs `body` as one request's scope; returns what it returned and the calls it made.
    public static func counting<Result>(_ body: () throws -> Result) rethrows -> (Result, calls: Int) {
        let calls = OutboundCalls()
        let result = try $current.withValue(calls, operation: body)
        return (result, calls.count.load(ordering: .relaxed))
    }
}
