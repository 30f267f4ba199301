import Foundation
import Locking
import Testing
import Web

@Suite struct JSONValueTests {
    private func nested(_ depth: Int) -> [UInt8] {
        Array((String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)).utf8)
    }

    @Test func nestingUpToTheLimitIsRead() throws {
        var value = try JSONValue.decode(nested(JSONValue.maxDepth))
        for _ in 0..<JSONValue.maxDepth { value = try #require(value.array?.first) }
        #expect(value == .number(1))
    }

    @Test func nestingPastTheLimitIsAClearError() {
        #expect(throws: JSONError.tooDeep) { try JSONValue.decode(nested(JSONValue.maxDepth + 1)) }
        #expect(JSONValue.parse(nested(JSONValue.maxDepth + 1)) == nil)
        #expect("\(JSONError.tooDeep)" == "JSON nested deeper than 64 levels")
    }

    /// The review's input: `{"a":` 400 times, closed (2.4 KB), crashed a 1 MiB serving thread. Decoded
    /// here on a thread of the same stack size, it is refused before any recursion.
    @Test func theReviewsCrashingInputIsRefusedOnAServingSizedStack() {
        let input = Array(
            (String(repeating: #"{"a":"#, count: 400) + "1" + String(repeating: "}", count: 400)).utf8)
        let result = Lock<JSONError?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do throws(JSONError) { _ = try JSONValue.decode(input) } catch { result.withLock { $0 = error } }
            done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
        done.wait()
        #expect(result.withLock { $0 } == .tooDeep)
    }

    @Test func bracketsInsideStringsDoNotCount() throws {
        let text = #"{"a":""# + String(repeating: "[{", count: 100) + #"\"]}"}"#
        #expect(try JSONValue.decode(Array(text.utf8))["a"]?.string?.hasPrefix("[{[{") == true)
    }

    @Test func booleansAreNotNumbers() throws {
        let value = try JSONValue.decode(Array(#"{"t":true,"one":1}"#.utf8))
        #expect(value["t"]?.bool == true)
        #expect(value["one"]?.bool == nil)
        #expect(value["one"]?.number == 1)
    }
}
