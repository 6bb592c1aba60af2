import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every card's HTML, rendered once, kept in a file beside the output instead of in memory:
/// a card appears on the "all" page and on each of its categories' pages, and 100,000 cards
/// make some 150 MB of HTML. Pages copy their cards' bytes from here.
///
/// Each card is followed by a newline, the text the built-in page template puts between two
/// cards, so that a run of consecutive cards (the whole "all" feed of a one-page build) is one
/// range of the file, which the kernel copies to the page without it passing through this
/// process (`sendfile`).
/// In memory instead (no folder given), for `serve`: a preview site is small, and rebuilt often.
final class CardSpool: @unchecked Sendable {
    private let descriptor: Int32
    private var memory: [UInt8] = []
    let path: String
    /// Byte range of each card, by position in display order.
    private var offsets: [Int] = []
    private var lengths: [Int32] = []
    private var end = 0

    init(folder: URL) throws {
        path = folder.appendingPathComponent(".cardfeed-spool-\(ProcessInfo.processInfo.processIdentifier)").path
        descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw OutputError(path: path, code: errno) }
        unlink(path)  // nothing to clean up, whatever happens: the file lives while it is open
    }

    init() {
        path = "(memory)"
        descriptor = -1
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    var count: Int { offsets.count }

    /// Appends the HTML of the next cards, in display order.
    func append(_ cards: [String]) throws {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(cards.reduce(0) { $0 + $1.utf8.count })
        for html in cards {
            offsets.append(end + bytes.count)
            lengths.append(Int32(html.utf8.count))
            bytes.append(contentsOf: html.utf8)
            bytes.append(UInt8(ascii: "\n"))
        }
        guard descriptor >= 0 else {
            memory += bytes
            end += bytes.count
            return
        }
        try bytes.withUnsafeBufferPointer { buffer in
            var written = 0
            while written < buffer.count {
                let result = pwrite(descriptor, buffer.baseAddress! + written, buffer.count - written, off_t(end + written))
                if result < 0 {
                    if errno == EINTR { continue }
                    throw OutputError(path: path, code: errno)
                }
                written += result
            }
        }
        end += bytes.count
    }

    /// One card's HTML.
    func html(at position: Int) throws -> String {
        if descriptor < 0 { return String(decoding: memory[offsets[position]..<offsets[position] + Int(lengths[position])], as: UTF8.self) }
        var bytes = [UInt8](repeating: 0, count: Int(lengths[position]))
        var done = 0
        while done < bytes.count {
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offsets[position] + done)) }
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { throw OutputError(path: path, code: read < 0 ? errno : EIO) }
            done += read
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Below this, a run of cards is read into the page's buffer: a system call per card (the
    /// scattered cards of a category page) costs more than the copy it saves.
    static let sendfileThreshold = 1 << 18

    /// Copies a byte range of the spool into `sink`'s buffer.
    private func read(_ range: Range<Int>, into sink: OutputSink, buffer: inout [UInt8]) throws {
        var offset = range.lowerBound
        while offset < range.upperBound {
            let chunk = min(range.upperBound - offset, buffer.count)
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, chunk, off_t(offset)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw OutputError(path: path, code: count < 0 ? errno : EIO) }
            try buffer.withUnsafeBufferPointer { try sink.write(UnsafeBufferPointer(rebasing: $0[..<count])) }
            offset += count
        }
    }

    /// Writes the cards at `positions` to `sink`, each followed by a newline; runs of consecutive
    /// cards are copied in one piece.
    func copyEachWithNewline(_ positions: ArraySlice<Int>, to sink: OutputSink) throws {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var index = positions.startIndex
        while index < positions.endIndex {
            var last = index
            while positions.index(after: last) < positions.endIndex, positions[positions.index(after: last)] == positions[last] + 1 {
                last = positions.index(after: last)
            }
            let start = offsets[positions[index]]
            let end = offsets[positions[last]] + Int(lengths[positions[last]]) + 1
            if descriptor < 0 {
                try memory.withUnsafeBufferPointer { try sink.write(UnsafeBufferPointer(rebasing: $0[start..<end])) }
            } else if end - start >= Self.sendfileThreshold {
                try sink.copy(from: descriptor, offset: start, count: end - start, path: path)
            } else {
                try read(start..<end, into: sink, buffer: &buffer)
            }
            index = positions.index(after: last)
        }
    }

    /// Writes the cards at `positions` to `sink`, with `separator` between two cards.
    func copy(_ positions: ArraySlice<Int>, separator: String, to sink: OutputSink) throws {
        if descriptor < 0 {
            var first = true
            for position in positions {
                if !first { try sink.write(separator) }
                first = false
                try memory.withUnsafeBufferPointer { all in
                    try sink.write(UnsafeBufferPointer(rebasing: all[offsets[position]..<offsets[position] + Int(lengths[position])]))
                }
            }
            return
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var first = true
        for position in positions {
            if !first { try sink.write(separator) }
            first = false
            var remaining = Int(lengths[position])
            var offset = offsets[position]
            while remaining > 0 {
                let chunk = min(remaining, buffer.count)
                let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, chunk, off_t(offset)) }
                if read < 0 {
                    if errno == EINTR { continue }
                    throw OutputError(path: path, code: errno)
                }
                guard read > 0 else { throw OutputError(path: path, code: EIO) }
                try buffer.withUnsafeBufferPointer { try sink.write(UnsafeBufferPointer(rebasing: $0[..<read])) }
                remaining -= read
                offset += read
            }
        }
    }
}
