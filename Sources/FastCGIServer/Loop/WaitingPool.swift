import Dispatch
import FoundationEssentials
import Locking
import Synchronization
import Web

/// Threads for the work that waits on other services (the tenant, a shared store): many, since
/// a waiting thread costs only its stack, so a slow tenant holds these and never the page threads.
final class WaitingPool: Sendable {
    /// Work for a thread of the pool, given that thread's scratch buffer.
    typealias Job = @Sendable (Scratch) -> Void

    private let jobs = Lock<[Job]>([])
    private let ready = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    private let threadCount: Int

    /// Starts `threads` threads named `name-N` with `stackSize` bytes of stack, each with a
    /// scratch buffer of `scratchBytes`.
    init(threads: Int, name: String, stackSize: Int, scratchBytes: Int) {
        threadCount = max(1, threads)
        for index in 0..<threadCount {
            Threads.start("\(name)-\(index)", stackSize: stackSize) { [self] in
                work(scratch: Scratch(bytes: scratchBytes))
            }
        }
    }

    /// Runs `job` on a thread of the pool, after the jobs before it.
    func submit(_ job: @escaping Job) {
        jobs.withLock { $0.append(job) }
        ready.signal()
    }

    /// Lets the threads end once the jobs submitted so far are done.
    func stop() {
        stopping.store(true, ordering: .releasing)
        for _ in 0..<threadCount { ready.signal() }
    }

    private func work(scratch: Scratch) {
        while true {
            ready.wait()
            let job: Job? = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            if let job {
                job(scratch)
            } else if stopping.load(ordering: .acquiring) {
                return
            }
        }
    }
}
