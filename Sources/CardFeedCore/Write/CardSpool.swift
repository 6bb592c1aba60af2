import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every card's HTML, rendered once, kept in files instead of in memory: a card appears on the
/// "all" page and on each of its categories' pages, and 100,000 cards make some 150 MB of HTML.
/// Pages copy their cards' bytes from here.
///
/// Each card is followed by a newline, the text the built-in page template puts between two
/// cards, so that a run of consecutive cards (the whole "all" feed of a one-page build) is one
/// range of a file, which the kernel copies to the page without it passing through this
/// process (`sendfile`).
///
/// The files are one spool file beside the output, or, in a first build, the "all" feed's pages
/// themselves (see `init(pages:)`). In memory instead (no folder given), for `serve`: a preview
/// site is small, and rebuilt often.
final class CardSpool: @unchecked Sendable {
    /// The files the cards are in, and their paths (for messages).
    private var descriptors: [Int32] = []
    private var paths: [String] = []
    private var memory: [UInt8] = []
    /// For the description of a spool.
    let path: String
    /// Byte range of each card, by position in display order, in file `fileOfCard` (none: all
    /// in the first).
    private var offsets: [Int] = []
    private var lengths: [Int32] = []
    private var fileOfCard: [Int32] = []
    /// The end of the last file.
    private var end = 0
    /// The bytes of all cards so far, newlines included.
    private(set) var size = 0
    /// With `init(pages:)`: the pages not yet begun, and how many more cards the current takes.
    private var pages: Pages?
    private var room = Int.max

    init(folder: URL) throws {
        // A name of its own: two builds in one process (the tests) must not share a spool.
        path = folder.appendingPathComponent(".cardfeed-spool-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw OutputError(path: path, code: errno) }
        unlink(path)  // nothing to clean up, whatever happens: the file lives while it is open
        descriptors = [descriptor]
        paths = [path]
    }

    /// The pages of a feed that shows every card in display order (the "all" feed), written by
    /// the built-in page writer: each page is its frame's `before`, its cards each followed by a
    /// newline, and its `after`.
    struct Pages {
        /// Where each page goes, and how many cards it shows.
        var paths: [String]
        var cardCounts: [Int]
        /// Page `index`'s text before and after its cards, asked for when it is begun.
        var frame: (_ index: Int) -> (before: String, after: String)
        fileprivate var next = 0
        fileprivate var after = ""

        init(paths: [String], cardCounts: [Int], frame: @escaping (Int) -> (before: String, after: String)) {
            self.paths = paths
            self.cardCounts = cardCounts
            self.frame = frame
        }
    }

    /// A spool that is also the "all" feed's pages: the build writes them as it renders, and
    /// does not copy every card from a spool into them afterwards (1.4 GB for a million cards on
    /// one page; on 20-card pages, a third of what a paginated build writes). Other pages copy
    /// their cards from these as from any spool. The files stay when the spool goes, and stay
    /// open until then: `descriptorsAvailable` says whether the process may have that many.
    init(pages: Pages) throws {
        precondition(!pages.paths.isEmpty && pages.paths.count == pages.cardCounts.count)
        path = pages.paths[0]
        self.pages = pages
        try beginPage()
    }

    /// In memory, with room for `capacity` bytes (the size of the last build's spool, say).
    init(capacity: Int = 0) {
        path = "(memory)"
        memory.reserveCapacity(capacity)
    }

    deinit {
        for descriptor in descriptors { close(descriptor) }
    }

    var count: Int { offsets.count }

    /// Whether `count` more files may be open at once, besides those the process has open
    /// already (some inherited from whatever started it), raising the process's soft limit
    /// towards its hard one if needed (as `ulimit -n` would).
    static func descriptorsAvailable(_ count: Int) -> Bool {
        var limit = rlimit()
        #if os(Linux)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return false }
        #if os(Linux)
        let openFolder = "/proc/self/fd"
        #else
        let openFolder = "/dev/fd"
        #endif
        guard let open = try? FileManager.default.contentsOfDirectory(atPath: openFolder).count else { return false }
        let needed = rlim_t(count + open + 256)  // and room for the writer's files and the runtime's
        if limit.rlim_cur >= needed { return true }
        guard limit.rlim_max >= needed else { return false }
        limit.rlim_cur = needed
        return setrlimit(resource, &limit) == 0
    }

    /// Appends the HTML of the next cards, in display order.
    func append(_ cards: [String]) throws {
        guard !descriptors.isEmpty else {
            // In memory: straight into the spool's bytes.
            for html in cards {
                offsets.append(end)
                lengths.append(Int32(html.utf8.count))
                memory.append(contentsOf: html.utf8)
                memory.append(UInt8(ascii: "\n"))
                end = memory.count
            }
            size = end
            return
        }
        var index = cards.startIndex
        while index < cards.endIndex {
            if room == 0 { try beginPage() }
            let batch = cards[index..<min(cards.endIndex, index + min(room, cards.count))]
            var bytes: [UInt8] = []
            bytes.reserveCapacity(batch.reduce(0) { $0 + $1.utf8.count + 1 })
            for html in batch {
                offsets.append(end + bytes.count)
                lengths.append(Int32(html.utf8.count))
                if pages != nil { fileOfCard.append(Int32(descriptors.count - 1)) }
                bytes.append(contentsOf: html.utf8)
                bytes.append(UInt8(ascii: "\n"))
            }
            try bytes.withUnsafeBufferPointer { try writeAtEnd($0) }
            size += bytes.count
            if room != .max { room -= batch.count }
            index = batch.endIndex
        }
    }

    /// Ends the current page and begins the next.
    private func beginPage() throws {
        guard var plan = pages else { return }
        if plan.next > 0 {
            var after = plan.after
            try after.withUTF8 { try writeAtEnd($0) }
        }
        guard plan.next < plan.paths.count else { throw OutputError(path: plan.paths.last ?? path, code: EFBIG) }
        let page = plan.next
        let descriptor = open(plan.paths[page], O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw OutputError(path: plan.paths[page], code: errno) }
        descriptors.append(descriptor)
        paths.append(plan.paths[page])
        end = 0
        let frame = plan.frame(page)
        var before = frame.before
        plan.after = frame.after
        plan.next += 1
        pages = plan
        room = plan.cardCounts[page]
        try before.withUTF8 { try writeAtEnd($0) }
    }

    /// Ends a spool that is pages (see `init(pages:)`): the last page gets its `after`, and
    /// pages that show no cards (an empty feed's one page) are written whole.
    func finishPages() throws {
        guard pages != nil else { return }
        precondition(room == 0, "a page is missing cards")
        while let plan = pages, plan.next < plan.paths.count { try beginPage() }
        var after = pages?.after ?? ""
        try after.withUTF8 { try writeAtEnd($0) }
        pages = nil
    }

    private func writeAtEnd(_ buffer: UnsafeBufferPointer<UInt8>) throws {
        let descriptor = descriptors[descriptors.count - 1]
        var written = 0
        while written < buffer.count {
            let result = pwrite(descriptor, buffer.baseAddress! + written, buffer.count - written, off_t(end + written))
            if result < 0 {
                if errno == EINTR { continue }
                throw OutputError(path: paths[paths.count - 1], code: errno)
            }
            written += result
        }
        end += buffer.count
    }

    /// The file holding the card at `position`.
    private func file(_ position: Int) -> Int { fileOfCard.isEmpty ? 0 : Int(fileOfCard[position]) }

    /// One card's HTML.
    func html(at position: Int) throws -> String {
        String(decoding: try bytes(file(position), offsets[position]..<offsets[position] + Int(lengths[position])), as: UTF8.self)
    }

    /// The bytes at `range` of file `file`: read in one system call.
    private func bytes(_ file: Int, _ range: Range<Int>) throws -> [UInt8] {
        if descriptors.isEmpty { return Array(memory[range]) }
        return try [UInt8](unsafeUninitializedCapacity: range.count) { buffer, count in
            try OutputSink.read(descriptors[file], into: buffer.baseAddress!, count: range.count, offset: range.lowerBound, path: paths[file])
            count = range.count
        }
    }

    /// From this length on, a run of consecutive cards is copied by the kernel (`sendfile`) when
    /// it is written, and not read into memory.
    static let sendfileThreshold = 1 << 18

    /// Writes the cards at `positions` to `sink`, each followed by a newline: a run of
    /// consecutive cards is one range of a spool file. Scattered cards (a category's) are read a
    /// window of up to a megabyte of one file at a time (a page of 20 from a spool file in one
    /// piece, from its first card to its last; from the "all" feed's pages, one window for each
    /// page they are on), which costs less than a system call per card.
    func copyEachWithNewline(_ positions: ArraySlice<Int>, to sink: OutputSink) throws {
        // Runs of consecutive cards in one file.
        var runs: [(file: Int, bytes: Range<Int>)] = []
        var index = positions.startIndex
        while index < positions.endIndex {
            var last = index
            while positions.index(after: last) < positions.endIndex, positions[positions.index(after: last)] == positions[last] + 1,
                file(positions[last] + 1) == file(positions[index]) {
                last = positions.index(after: last)
            }
            runs.append((file(positions[index]), offsets[positions[index]]..<offsets[positions[last]] + Int(lengths[positions[last]]) + 1))
            index = positions.index(after: last)
        }
        if descriptors.isEmpty {
            try memory.withUnsafeBufferPointer { all in
                for run in runs { try sink.write(UnsafeBufferPointer(rebasing: all[run.bytes])) }
            }
            return
        }
        var window: [UInt8] = []
        var next = 0
        while next < runs.count {
            let (file, first) = runs[next]
            if first.count >= Self.sendfileThreshold {
                try sink.copy(from: descriptors[file], offset: first.lowerBound, count: first.count, path: paths[file])
                next += 1
                continue
            }
            // Short runs (the scattered cards of a category) are read a window at a time.
            var last = next
            while last + 1 < runs.count, runs[last + 1].file == file, runs[last + 1].bytes.count < Self.sendfileThreshold,
                runs[last + 1].bytes.upperBound - first.lowerBound <= Self.windowSize {
                last += 1
            }
            let span = first.lowerBound..<runs[last].bytes.upperBound
            if window.count < span.count {
                // Not zeroed: the read fills what is used (zeroing 64 KB a page cost more than the read).
                let size = max(span.count, 1 << 16)
                window = [UInt8](unsafeUninitializedCapacity: size) { _, count in count = size }
            }
            try window.withUnsafeMutableBytes {
                try OutputSink.read(descriptors[file], into: $0.baseAddress!, count: span.count, offset: span.lowerBound, path: paths[file])
            }
            try window.withUnsafeBufferPointer { all in
                for (_, run) in runs[next...last] {
                    try sink.write(UnsafeBufferPointer(rebasing: all[run.lowerBound - span.lowerBound..<run.upperBound - span.lowerBound]))
                }
            }
            next = last + 1
        }
    }

    /// At most this much of the spool is read at once for a page's short runs of cards.
    static let windowSize = 1 << 20

    /// Writes the cards at `positions` to `sink`, with `separator` between two cards.
    func copy(_ positions: ArraySlice<Int>, separator: String, to sink: OutputSink) throws {
        var first = true
        for position in positions {
            if !first { try sink.write(separator) }
            first = false
            try bytes(file(position), offsets[position]..<offsets[position] + Int(lengths[position])).withUnsafeBufferPointer { try sink.write($0) }
        }
    }
}
