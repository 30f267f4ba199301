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

    /// The request's record is built where it is held: it reads as written, after the lines
    /// held before it, and what it would push past one atomic write goes first.
    @Test func aRecordBuiltWhereItIsHeldGoesOutInItsPlace() throws {
        let pipe = try Pipe()
        let lines = HeldLogLines(descriptor: pipe.writing)
        let log = Log(minimum: .info)
        let start = Log.LineStart(.info, "request")
        hold("level=info msg=first\n", in: lines)
        log.write(start, heldBy: lines) { $0.field("id", "a1") }
        #expect(pipe.arrived() == nil)
        lines.writeOut()
        #expect(pipe.arrived() == "level=info msg=first\nlevel=info msg=request id=a1\n")
        let long = String(repeating: "x", count: 3000)
        log.write(start, heldBy: lines) { $0.field("path", long) }
        #expect(pipe.arrived() == nil)
        log.write(start, heldBy: lines) { $0.field("path", long) }  // the two would not fit in one write
        #expect(pipe.arrived() == "level=info msg=request path=\(long)\n")
        lines.writeOut()
        #expect(pipe.arrived() == "level=info msg=request path=\(long)\n")
        let longer = String(repeating: "y", count: 5000)
        log.write(start, heldBy: lines) { $0.field("path", longer) }  // longer than one write alone
        #expect(pipe.arrived() == "level=info msg=request path=\(longer)\n")
        lines.writeOut()
        #expect(pipe.arrived() == nil)
    }

    /// A record logged while another is being built is written at once; the other is still held,
    /// and so are the lines held before it.
    @Test func aRecordLoggedWhileAnotherIsBuiltIsWrittenAndNothingHeldIsLost() throws {
        let pipe = try Pipe()
        let lines = HeldLogLines(descriptor: pipe.writing)
        let log = Log(minimum: .info)
        hold("level=info msg=first\n", in: lines)
        log.write(Log.LineStart(.info, "outer"), heldBy: lines) { line in
            line.field("n", 1)
            log.write(Log.LineStart(.info, "inner"), heldBy: lines) { $0.field("n", 2) }
        }
        #expect(pipe.arrived() == "level=info msg=inner n=2\n")
        lines.writeOut()
        #expect(pipe.arrived() == "level=info msg=first\nlevel=info msg=outer n=1\n")
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
