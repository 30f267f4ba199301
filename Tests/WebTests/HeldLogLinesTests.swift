import Foundation
import Locking
import Testing

@testable import Web

/// A page thread's log lines are held and written together, never split across writes.
@Suite struct HeldLogLinesTests {
    /// A pipe standing for standard error, its reading end not blocking.
    final class Pipe {
        let reading: Int32
        let writing: Int32

        init() throws {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw POSIXError(.EIO) }
            (reading, writing) = (ends[0], ends[1])
            _ = fcntl(reading, F_SETFL, fcntl(reading, F_GETFL) | O_NONBLOCK)
        }

        deinit {
            close(reading)
            close(writing)
        }

        /// What arrived since the last call, or nil when nothing did.
        func arrived() -> String? {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = read(reading, &buffer, buffer.count)
            return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
        }
    }

    func hold(_ text: String, in lines: HeldLogLines) {
        var copy = text
        copy.withUTF8 { lines.hold($0) }
    }

    @Test func linesWaitUntilWrittenOutThenGoTogether() throws {
        let pipe = try Pipe()
        let lines = HeldLogLines(descriptor: pipe.writing)
        hold("level=info msg=request id=1\n", in: lines)
        hold("level=info msg=request id=2\n", in: lines)
        #expect(pipe.arrived() == nil)
        lines.writeOut()
        #expect(pipe.arrived() == "level=info msg=request id=1\nlevel=info msg=request id=2\n")
        lines.writeOut()  // nothing held: nothing written
        #expect(pipe.arrived() == nil)
    }

    @Test func aLineThatWouldNotFitInOneAtomicWriteSendsTheHeldOnesFirst() throws {
        let pipe = try Pipe()
        let lines = HeldLogLines(descriptor: pipe.writing)
        let line = String(repeating: "x", count: 999) + "\n"
        for _ in 0..<4 { hold(line, in: lines) }
        #expect(pipe.arrived() == nil)
        hold(line, in: lines)  // 5,000 bytes would not be one atomic write
        #expect(pipe.arrived() == String(repeating: line, count: 4))
        lines.writeOut()
        #expect(pipe.arrived() == line)
    }

    @Test func aLineLongerThanOneAtomicWriteIsWrittenAtOnceWhole() throws {
        let pipe = try Pipe()
        let lines = HeldLogLines(descriptor: pipe.writing)
        hold("level=info msg=first\n", in: lines)
        let long = "level=warning msg=" + String(repeating: "y", count: 5000) + "\n"
        hold(long, in: lines)  // the held line first, then the long one, nothing kept back
        #expect(pipe.arrived() == "level=info msg=first\n" + long)
        lines.writeOut()
        #expect(pipe.arrived() == nil)
    }

    /// A thread that did not ask to hold lines writes each at once (the waiting pool's threads,
    /// the main thread): nothing is made for it, so there is nothing to write out.
    @Test func onlyAThreadThatAskedHoldsLines() {
        let made = Thread.detachNewThreadAndWait { HeldLogLines.ofThisThread.existingValue() != nil }
        #expect(made == false)
        let asked = Thread.detachNewThreadAndWait {
            Log.holdLinesOnThisThread()
            return HeldLogLines.ofThisThread.existingValue() != nil
        }
        #expect(asked == true)
    }
}

extension Thread {
    /// Runs `body` on a new thread and answers what it returned.
    static func detachNewThreadAndWait(_ body: @escaping @Sendable () -> Bool) -> Bool {
        let result = Lock(false)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let answer = body()
            result.withLock { $0 = answer }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 }
    }
}
