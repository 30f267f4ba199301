import Foundation
import Locking
import PerThread
import Synchronization
import Testing
import Web

@Suite struct ThreadLocalTests {
    final class Count: Sendable {
        private let atomic = Atomic<Int>(0)
        var value: Int { atomic.load(ordering: .relaxed) }
        func add() { atomic.add(1, ordering: .relaxed) }
    }

    final class Token: Sendable {}

    final class Tracked {
        let released: Count
        init(_ released: Count) { self.released = released }
        deinit { released.add() }
    }

    @Test func eachThreadKeepsItsOwnObjectUntilItEnds() {
        let made = Count()
        let released = Count()
        let local = ThreadLocal<Token, Never> {
            made.add()
            return Token()
        }
        let mine = local.value()
        #expect(local.value() === mine)
        // Kept alive here: an ended thread frees its object, and its address may be reused.
        let others = Lock<[Token]>([])
        let threads = (0..<4).map { _ in
            Thread {
                let first = local.value()
                guard local.value() === first else { return }
                others.withLock { $0.append(first) }
            }
        }
        threads.forEach { $0.start() }
        for _ in 0..<200 where others.withLock({ $0.count }) < 4 { usleep(5_000) }
        let seen = others.withLock { $0 }
        #expect(seen.count == 4)
        #expect(Set((seen + [mine]).map(ObjectIdentifier.init)).count == 5)
        #expect(made.value == 5)

        let tracking = ThreadLocal { Tracked(released) }
        let thread = Thread { _ = tracking.value() }
        thread.start()
        for _ in 0..<200 where released.value == 0 { usleep(5_000) }
        #expect(released.value == 1)
    }
}
