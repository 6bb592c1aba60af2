import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file being written, through a buffer: pages of tens of thousands of cards are streamed to
/// disk instead of being assembled in memory. A sink without a file collects the bytes instead
/// (for `serve`, which compares a page with the one it wrote before).
public final class OutputSink {
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private let path: String
    private let inMemory: Bool
    static let bufferSize = 1 << 16

    init(path: String) throws {
        self.path = path
        inMemory = false
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw OutputError(path: path, code: errno) }
        buffer.reserveCapacity(Self.bufferSize)
    }

    /// A sink that keeps what is written in `bytes`.
    init(inMemoryFor path: String) {
        self.path = path
        inMemory = true
        descriptor = -1
    }

    /// What an in-memory sink was given.
    var bytes: [UInt8] { buffer }

    public func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write($0) }
    }

    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        if inMemory {
            buffer.append(contentsOf: bytes)
            return
        }
        if buffer.count + bytes.count > Self.bufferSize { try flush() }
        if bytes.count >= Self.bufferSize {
            try writeAll(bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    /// Copies `count` bytes of another file, from `offset`, after what was written so far.
    func copy(from source: Int32, offset: Int, count: Int, path sourcePath: String) throws {
        guard !inMemory else {
            var bytes = [UInt8](repeating: 0, count: count)
            var done = 0
            while done < count {
                let read = bytes.withUnsafeMutableBytes { pread(source, $0.baseAddress! + done, count - done, off_t(offset + done)) }
                if read < 0 && errno == EINTR { continue }
                guard read > 0 else { throw OutputError(path: sourcePath, code: read < 0 ? errno : EIO) }
                done += read
            }
            buffer += bytes
            return
        }
        try flush()
        var position = off_t(offset)
        var remaining = count
        while remaining > 0 {
            let sent = sendfile(descriptor, source, &position, remaining)
            if sent < 0 {
                if errno == EINTR { continue }
                throw OutputError(path: path, code: errno)
            }
            guard sent > 0 else { throw OutputError(path: sourcePath, code: EIO) }
            remaining -= sent
        }
    }

    func flush() throws {
        guard !inMemory, !buffer.isEmpty else { return }
        try buffer.withUnsafeBufferPointer { try writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw OutputError(path: path, code: errno)
            }
            offset += written
        }
    }

    /// Flushes and closes the file.
    func finish() throws {
        guard !inMemory else { return }
        try flush()
        let result = close(descriptor)
        descriptor = -1
        guard result == 0 else { throw OutputError(path: path, code: errno) }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }
}

#if canImport(Glibc)
let systemWrite = Glibc.write
#elseif canImport(Darwin)
let systemWrite = Darwin.write
#endif

struct OutputError: Error, CustomStringConvertible {
    var path: String
    var code: Int32
    var description: String { "cannot write \(path): \(String(cString: strerror(code)))" }
}
