import Foundation
import CardFeedModel
import CardFeedSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file being written, through a buffer: pages of tens of thousands of cards are streamed to
/// disk instead of being assembled in memory.
///
/// A sink can also stand for a file of a previous build: it first compares what it is given with
/// that file, a window at a time, and writes nothing while the two agree. Only when they differ
/// does it write its own file (starting with the bytes the two had in common). A rebuild that
/// changes one card writes no other page (see `OutputTransaction`).
///
/// A sink without a file collects the bytes instead (for `serve`, which compares a page with the
/// one it wrote before).
public final class OutputSink {
    private enum Mode {
        /// Writing to `path`.
        case writing
        /// Agreeing, so far, with the file being replaced (`previous`).
        case comparing
        /// Collecting the bytes in `buffer`.
        case inMemory
        /// Keeping nothing (`cardfeed check`, which renders every page as a build does).
        case discarding
    }

    /// How a file came out.
    enum Outcome: Equatable {
        case written
        /// Byte for byte the file it was to replace, which is left as it was.
        case unchanged
    }

    private var mode: Mode
    private var descriptor: Int32 = -1
    /// Bytes waiting to be written; in comparing mode, a window of the file being replaced.
    private var buffer: [UInt8] = []
    /// Where the bytes are written.
    private let path: String
    /// The file being replaced, its size, where `buffer` starts in it, and how much of it the
    /// new file has matched.
    private var previous: (descriptor: Int32, size: Int, path: String)?
    private var windowStart = 0
    private var matched = 0
    static let bufferSize = 1 << 16
    /// A piece at least this long that finds the buffer empty is written without it.
    static let directWriteSize = 1 << 12

    /// A sink that writes a new file at `path` (an error if one exists, which is left as it is),
    /// unless what it is given is byte for byte the regular file at `previous`: then it writes
    /// nothing, and `finish` says the file is unchanged. A symbolic link or a folder at
    /// `previous` is not looked into.
    init(path: String, comparingWith previous: String?) throws {
        self.path = path
        mode = .writing
        let existing = previous.map { open($0, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) } ?? -1
        guard let previous, existing >= 0 else {
            try openFile()
            return
        }
        var status = stat()
        guard fstat(existing, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(existing)
            try openFile()
            return
        }
        self.previous = (existing, Int(status.st_size), previous)
        mode = .comparing
    }

    /// A sink that keeps what is written in `bytes`.
    init(inMemoryFor path: String) {
        self.path = path
        mode = .inMemory
    }

    /// A sink that keeps nothing of what is written.
    init(discarding path: String) {
        self.path = path
        mode = .discarding
    }

    private func openFile() throws {
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw OutputError(path: path, code: errno) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// What an in-memory sink was given.
    var bytes: [UInt8] { buffer }

    public func write(_ text: String) throws {
        try text.withByteView { bytes throws in try write(bytes) }
    }

    package func write(_ bytes: [UInt8]) throws {
        try bytes.withByteView { bytes throws in try write(bytes) }
    }

    package func write(_ bytes: ArraySlice<UInt8>) throws {
        try bytes.withByteView { bytes throws in try write(bytes) }
    }

    package func write(_ data: Data) throws {
        try data.withByteView { bytes throws in try write(bytes) }
    }

    package func write(_ bytes: ByteView) throws {
        switch mode {
        case .inMemory:
            buffer.append(bytes)
            return
        case .discarding:
            return
        case .comparing:
            if try matchesPrevious(bytes) { return }
            try diverge()
        case .writing:
            break
        }
        if buffer.count + bytes.count > Self.bufferSize { try flush() }
        // A whole small file in one piece (a card's page) goes straight to the file, as a piece
        // too large for the buffer does: the buffer is then never made.
        if bytes.count >= Self.bufferSize || (buffer.isEmpty && bytes.count >= Self.directWriteSize) {
            try writeAll(bytes)
        } else {
            if buffer.capacity < Self.bufferSize { buffer.reserveCapacity(Self.bufferSize) }
            buffer.append(bytes)
        }
    }

    /// Whether `bytes` are what the file being replaced holds next; if so, they are matched.
    private func matchesPrevious(_ bytes: ByteView) throws -> Bool {
        guard let previous, matched + bytes.count <= previous.size else { return false }
        var checked = 0
        while checked < bytes.count {
            let position = matched + checked
            if position >= windowStart + buffer.count {
                // The next window of the old file.
                windowStart = position
                let length = min(Self.bufferSize, previous.size - position)
                do {
                    buffer = try SystemCalls.read(previous.descriptor, count: length, offset: position)
                } catch {
                    throw OutputError(path: previous.path, code: error.code)
                }
            }
            let length = min(bytes.count - checked, windowStart + buffer.count - position)
            let same = buffer.withByteView { $0.holds(bytes, from: checked, at: position - windowStart, length: length) }
            guard same else { return false }
            checked += length
        }
        matched += bytes.count
        return true
    }

    /// The new file differs from the one it replaces: writing starts, with what the two had in
    /// common, copied by the kernel.
    private func diverge() throws {
        guard let previous else { return }
        try openFile()
        mode = .writing
        try copyInKernel(from: previous.descriptor, offset: 0, count: matched, path: previous.path)
        close(previous.descriptor)
        self.previous = nil
    }

    private func copyInKernel(from source: Int32, offset: Int, count: Int, path sourcePath: String) throws {
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
        guard mode == .writing, !buffer.isEmpty else { return }
        try buffer.withByteView { bytes throws in try writeAll(bytes) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: ByteView) throws {
        if let code = SystemCalls.write(bytes, to: descriptor) { throw OutputError(path: path, code: code) }
    }

    /// The file's stamp once `finish` returned: the old file's when it was unchanged (the output
    /// keeps that one); nil for a file in memory. What the build cache keeps of a page, read
    /// here rather than by a `stat` of each page after the build.
    private(set) var stamp: FileStamp?

    /// Flushes and closes the file; when comparing with one, says whether anything was written.
    @discardableResult
    func finish() throws -> Outcome {
        switch mode {
        case .inMemory, .discarding:
            return .written
        case .comparing:
            if let previous, matched == previous.size {
                stamp = FileStamp(descriptor: previous.descriptor)
                close(previous.descriptor)
                self.previous = nil
                return .unchanged
            }
            try diverge()  // the new file is a beginning of the old one
        case .writing:
            break
        }
        try flush()
        stamp = FileStamp(descriptor: descriptor)
        let result = close(descriptor)
        descriptor = -1
        guard result == 0 else { throw OutputError(path: path, code: errno) }
        return .written
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if let previous { close(previous.descriptor) }
    }
}

package struct OutputError: Error, CustomStringConvertible {
    var path: String
    package var code: Int32

    package init(path: String, code: Int32) {
        self.path = path
        self.code = code
    }

    package var description: String { "cannot write \(path): \(String(cString: strerror(code)))" }
}
