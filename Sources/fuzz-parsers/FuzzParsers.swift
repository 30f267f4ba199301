import Auth0Web
import Web

// libFuzzer targets over the parsers that face outside input, one per name (`FuzzTarget.all`);
// `FUZZ_TARGET` picks the one a run drives, each with its own corpus in
// Tests/FuzzTests/Corpus/NAME. Every target checks properties of what it accepts, not only that
// nothing crashes. Built by `make fuzz` with `--sanitize=fuzzer -Xswiftc -DFUZZING` (libFuzzer
// brings main); a plain build makes a tool that replays input files through a target.

/// A named property check over one input.
struct FuzzTarget: Sendable {
    let name: String
    let run: @Sendable ([UInt8]) -> Void

    /// Every target, by name.
    static let all: [String: FuzzTarget] = Dictionary(
        uniqueKeysWithValues: (cookieTargets + formatTargets + tenantTargets + framingTargets + answerTargets
            + storeTargets).map {
                ($0.name, $0)
            })
}

#if FUZZING
    /// The target of this run, read once: `FUZZ_TARGET` (the script sets it for each).
    private let selected: FuzzTarget = {
        let name = getenv("FUZZ_TARGET").map { String(cString: $0) } ?? ""
        guard let target = FuzzTarget.all[name] else {
            fatalError("FUZZ_TARGET must name a target: \(FuzzTarget.all.keys.sorted().joined(separator: ", "))")
        }
        return target
    }()

    /// libFuzzer's entry point: feeds one input to the selected target.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
        selected.run(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }

    import Glibc
#else
    import Foundation

    /// Replays input files (e.g. a crash libFuzzer saved) through a target:
    /// `fuzz-parsers TARGET FILE...`.
    @main
    struct ReplayInputs {
        static func main() throws {
            let arguments = Array(CommandLine.arguments.dropFirst())
            guard let name = arguments.first, let target = FuzzTarget.all[name] else {
                print(
                    "usage: fuzz-parsers TARGET FILE... (targets: \(FuzzTarget.all.keys.sorted().joined(separator: " ")))"
                )
                return
            }
            for path in arguments.dropFirst() {
                target.run(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
                print("ok: \(name) \(path)")
            }
        }
    }
#endif
