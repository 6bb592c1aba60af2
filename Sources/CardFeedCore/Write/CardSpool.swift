import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every card's HTML, rendered once, kept in a file instead of in memory: a card appears on the
/// "all" page and on each of its categories' pages, and 100,000 cards make some 150 MB of HTML.
/// Pages copy their cards' bytes from here. A rebuild over an earlier output and `serve` go
/// this way; a first build writes every page as the cards render instead (`PageStreams`).
///
/// Each card is followed by a newline, the text the built-in page template puts between two
/// cards, so that a run of consecutive cards (the whole "all" feed of a one-page build) is one
/// range of the file, which the kernel copies to the page without it passing through this
/// process (`sendfile`).
///
/// In memory instead (no folder given), for `serve`: a preview site is small, and rebuilt often.
final class CardSpool: RenderedCards, @unchecked Sendable {
    /// The file the cards are in (-1: in `memory`), and its path (for messages).
    private let descriptor: Int32
    let path: String
    private var memory: [UInt8] = []
    /// Byte range of each card, by position in display order.
    private var offsets: [Int] = []
    private var lengths: [Int32] = []
    /// The bytes of all cards so far, newlines included.
    private(set) var size = 0

    init(folder: URL) throws {
        // A name of its own: two builds in one process (the tests) must not share a spool.
        path = folder.appendingPathComponent(".cardfeed-spool-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)").path
        descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw OutputError(path: path, code: errno) }
        unlink(path)  // nothing to clean up, whatever happens: the file lives while it is open
    }

    /// In memory, with room for `capacity` bytes (the size of the last build's spool, say).
    init(capacity: Int = 0) {
        descriptor = -1
        path = "(memory)"
        memory.reserveCapacity(capacity)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    var count: Int { offsets.count }

    /// Appends the HTML of the next cards, in display order.
    func append(_ html: [String], at positions: Range<Int>) throws {
        precondition(positions.lowerBound == count && positions.count == html.count, "cards must come in display order")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(html.reduce(0) { $0 + $1.utf8.count + 1 })
        for card in html {
            offsets.append(size + bytes.count)
            lengths.append(Int32(card.utf8.count))
            bytes.append(contentsOf: card.utf8)
            bytes.append(UInt8(ascii: "\n"))
        }
        if descriptor < 0 {
            memory.append(contentsOf: bytes)
        } else {
            try bytes.withUnsafeBufferPointer { buffer in
                var written = 0
                while written < buffer.count {
                    let result = pwrite(descriptor, buffer.baseAddress! + written, buffer.count - written, off_t(size + written))
                    if result < 0 {
                        if errno == EINTR { continue }
                        throw OutputError(path: path, code: errno)
                    }
                    written += result
                }
            }
        }
        size += bytes.count
    }

    /// One card's HTML.
    func html(at position: Int) throws -> String {
        String(decoding: try bytes(offsets[position]..<offsets[position] + Int(lengths[position])), as: UTF8.self)
    }

    /// The bytes at `range`: read in one system call.
    private func bytes(_ range: Range<Int>) throws -> [UInt8] {
        if descriptor < 0 { return Array(memory[range]) }
        return try [UInt8](unsafeUninitializedCapacity: range.count) { buffer, count in
            try OutputSink.read(descriptor, into: buffer.baseAddress!, count: range.count, offset: range.lowerBound, path: path)
            count = range.count
        }
    }

    /// From this length on, a run of consecutive cards is copied by the kernel (`sendfile`) when
    /// it is written, and not read into memory.
    static let sendfileThreshold = 1 << 18

    /// Writes the cards at `positions` to `sink`, each followed by a newline: a run of
    /// consecutive cards is one range of the spool. Scattered cards (a category's) are read a
    /// window of up to a megabyte at a time (a page of 20 in one piece, from its first card to
    /// its last), which costs less than a system call per card.
    func copyEachWithNewline(_ positions: ArraySlice<Int>, to sink: OutputSink) throws {
        // Runs of consecutive cards.
        var runs: [Range<Int>] = []
        var index = positions.startIndex
        while index < positions.endIndex {
            var last = index
            while positions.index(after: last) < positions.endIndex, positions[positions.index(after: last)] == positions[last] + 1 {
                last = positions.index(after: last)
            }
            runs.append(offsets[positions[index]]..<offsets[positions[last]] + Int(lengths[positions[last]]) + 1)
            index = positions.index(after: last)
        }
        if descriptor < 0 {
            try memory.withUnsafeBufferPointer { all in
                for run in runs { try sink.write(UnsafeBufferPointer(rebasing: all[run])) }
            }
            return
        }
        var window: [UInt8] = []
        var next = 0
        while next < runs.count {
            let first = runs[next]
            if first.count >= Self.sendfileThreshold {
                try sink.copy(from: descriptor, offset: first.lowerBound, count: first.count, path: path)
                next += 1
                continue
            }
            // Short runs (the scattered cards of a category) are read a window at a time.
            var last = next
            while last + 1 < runs.count, runs[last + 1].count < Self.sendfileThreshold,
                runs[last + 1].upperBound - first.lowerBound <= Self.windowSize {
                last += 1
            }
            let span = first.lowerBound..<runs[last].upperBound
            if window.count < span.count {
                // Not zeroed: the read fills what is used (zeroing 64 KB a page cost more than the read).
                let size = max(span.count, 1 << 16)
                window = [UInt8](unsafeUninitializedCapacity: size) { _, count in count = size }
            }
            try window.withUnsafeMutableBytes {
                try OutputSink.read(descriptor, into: $0.baseAddress!, count: span.count, offset: span.lowerBound, path: path)
            }
            try window.withUnsafeBufferPointer { all in
                for run in runs[next...last] {
                    try sink.write(UnsafeBufferPointer(rebasing: all[run.lowerBound - span.lowerBound..<run.upperBound - span.lowerBound]))
                }
            }
            next = last + 1
        }
    }

    /// At most this much of the spool is read at once for a page's short runs of cards.
    static let windowSize = 1 << 20
}
