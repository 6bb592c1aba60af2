import Foundation
import Synchronization
#if CARDFEED_LIBFUZZER
import CLibFuzzer
#endif

/// libFuzzer behind a function of bytes: the fuzz target (Sources/CardFeedFuzz) hands over its
/// check, and libFuzzer calls it with each input it makes. libFuzzer is linked only into the fuzz
/// build (CARDFEED_LIBFUZZER=1, scripts/fuzz.sh); its C signatures, which take pointers, are here
/// so that the fuzz target has no unsafe code.
package enum LibFuzzer {
    /// Whether this build has libFuzzer (the fuzz build's).
    package static var linked: Bool {
        #if CARDFEED_LIBFUZZER
        true
        #else
        false
        #endif
    }

    /// Hands the process over to libFuzzer's driver, which reads its options and corpus folders
    /// from the command line and calls `check` with each input; exits with its status. A check
    /// that finds a problem aborts, which libFuzzer reports as a crash and saves.
    package static func run(_ check: @escaping @Sendable (Data) -> Void) -> Never {
        #if CARDFEED_LIBFUZZER
        self.check.withLock { $0 = check }
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
        #else
        preconditionFailure("libFuzzer is linked only into the fuzz build (CARDFEED_LIBFUZZER=1, scripts/fuzz.sh)")
        #endif
    }

    /// The fuzz target's check, for `testOneInput`, which as a C function captures nothing.
    fileprivate static let check = Mutex<(@Sendable (Data) -> Void)?>(nil)
}

#if CARDFEED_LIBFUZZER
/// libFuzzer's entry point for one input: its bytes, copied, to the fuzz target's check.
@c(LLVMFuzzerTestOneInput)
public func testOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    LibFuzzer.check.withLock { $0 }?(data)
    return 0
}
#endif
