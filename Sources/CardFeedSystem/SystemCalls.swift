import Foundation
import Synchronization
import CArguments
#if CARDFEED_LIBFUZZER
import CLibFuzzer
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system calls that read or write memory through a pointer (`readdir`'s entries, `pread`,
/// `write`, `send`, `recv`, `inet_pton`), each behind a function that takes and returns Swift
/// values: the rest of the code never holds the pointer. Errors are `errno` values.
package enum SystemCalls {
    /// An entry of a folder, as `readdir` gives it.
    package struct Entry: Sendable {
        /// The name's bytes (a name need not be UTF-8).
        package var name: [UInt8]
        package var isFolder: Bool
        /// The file system does not say what the entry is (`DT_UNKNOWN`): ask `stat`.
        package var kindUnknown: Bool
        /// The entry's inode (`d_ino`): the same for two names of one file, without a `stat`.
        package var inode: UInt64

        /// The name as text (an invalid byte replaced by U+FFFD).
        package var text: String { String(decoding: name, as: UTF8.self) }
    }

    /// The entries of `folder` (`.` and `..` included, as `readdir` gives them), or nil when it
    /// cannot be opened.
    package static func entries(of folder: String) -> [Entry]? {
        guard let stream = opendir(folder) else { return nil }
        defer { closedir(stream) }
        var entries: [Entry] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            let type = Int32(entry.pointee.d_type)
            entries.append(Entry(name: name, isFolder: type == Int32(DT_DIR), kindUnknown: type == Int32(DT_UNKNOWN), inode: UInt64(entry.pointee.d_ino)))
        }
        return entries
    }

    /// A call that failed, with its `errno`.
    package struct Failure: Error {
        package var code: Int32
    }

    /// The folder at `path`, opened to reach files from it (`fstatat`, `linkat`); -1 when it
    /// cannot be. (A type with an `open` method of its own cannot name the C function.)
    package static func openFolder(_ path: String) -> Int32 {
        open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }

    /// Closes `descriptor`, as `openFolder` pairs with.
    package static func close(_ descriptor: Int32) {
        _ = Foundation.close(descriptor)
    }

    /// Reads exactly `count` bytes of `descriptor` from `offset`; EIO when the file ends first.
    package static func read(_ descriptor: Int32, count: Int, offset: Int) throws(Failure) -> [UInt8] {
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let read = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
                if read < 0 && errno == EINTR { continue }
                guard read > 0 else {
                    failure = read < 0 ? errno : EIO
                    break
                }
                done += read
            }
            // Bytes the file did not give are zeroed, so that the array holds no memory unread.
            if done < count { buffer.baseAddress!.advanced(by: done).initialize(repeating: 0, count: count - done) }
            initialized = count
        }
        guard failure == 0 else { throw Failure(code: failure) }
        return bytes
    }

    /// Writes all of `bytes` to `descriptor`; returns `errno` when it cannot.
    package static func write(_ bytes: ByteView, to descriptor: Int32) -> Int32? {
        bytes.withContiguousStorageIfAvailable { buffer -> Int32? in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        } ?? nil
    }

    /// Writes all of `bytes` into the file `descriptor` from `offset` (`pwrite`: two threads
    /// may write one file at two places at once); returns `errno` when it cannot.
    package static func write(_ bytes: [UInt8], to descriptor: Int32, at offset: Int) -> Int32? {
        bytes.withUnsafeBufferPointer { buffer -> Int32? in
            var done = 0
            while done < buffer.count {
                let written = pwrite(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += written
            }
            return nil
        }
    }

    /// Sends `bytes` on `socket` with `flags`; returns what `send` returns.
    @discardableResult
    package static func send(_ bytes: [UInt8], on socket: Int32, flags: Int32) -> Int {
        bytes.withUnsafeBytes { systemSend(socket, $0.baseAddress, $0.count, flags) }
    }

    /// Receives up to `count` bytes from `socket` with `flags` and drops them; returns what
    /// `recv` returns.
    package static func discard(upTo count: Int, from socket: Int32, flags: Int32) -> Int {
        var scratch = [UInt8](repeating: 0, count: count)
        return scratch.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, flags) }
    }

    /// The bytes of an IP address as `inet_pton` reads it (dotted quad for IPv4, no brackets for
    /// IPv6), with its family (`AF_INET`, `AF_INET6`).
    package static func ipAddress(_ text: String) -> (family: Int32, bytes: [UInt8])? {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return (AF_INET, withUnsafeBytes(of: &v4) { Array($0) }) }
        if inet_pton(AF_INET6, text, &v6) == 1 { return (AF_INET6, withUnsafeBytes(of: &v6) { Array($0) }) }
        return nil
    }

    /// An IP address's bytes as `inet_ntop` writes them, or nil.
    package static func spell(ipAddress bytes: [UInt8], family: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let ok = bytes.withUnsafeBytes { raw in
            buffer.withUnsafeMutableBytes { out in
                inet_ntop(family, raw.baseAddress, out.baseAddress!.assumingMemoryBound(to: CChar.self), socklen_t(out.count)) != nil
            }
        }
        guard ok else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
private let systemSend = Glibc.send
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
private let systemSend = Darwin.send
#endif

/// The program's arguments as `main` received them (`CArguments`), not through
/// `CommandLine.arguments`, which Swift on Linux reads from /proc/self/cmdline: without /proc
/// (a chroot, a container) it is empty, and `cardfeed build` would print the help and exit 0.
package enum ProcessArguments {
    /// Whether the C library gave main's arguments (it gives at least the program's name).
    package static var known: Bool { cardfeed_argc() > 0 && cardfeed_argv() != nil }

    /// Every argument, the program's name first; `CommandLine.arguments` where the C library
    /// gave none.
    package static var all: [String] {
        guard known, let argv = cardfeed_argv() else { return CommandLine.arguments }
        return (0..<Int(cardfeed_argc())).map { argv[$0].map { String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self) } ?? "" }
    }
}

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

/// A pointer value that marks something in a C library's `void *` user data (cmark's text nodes
/// made from raw HTML, `AllowedHTML`): it points at nothing, and is only ever compared.
package enum PointerMark {
    package static var first: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: 1) }
}
