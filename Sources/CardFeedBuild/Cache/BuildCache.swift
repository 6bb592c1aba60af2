import Foundation
import Synchronization
import CardFeedLoad
import CardFeedModel
import CardFeedRender
import CardFeedSystem
import CardFeedWrite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a build keeps on disk for the next one, in its cache folder (`BuildCacheFolder`): the
/// entries of the card files it decoded, by a hash of their bytes (`KeptEntry`, see
/// `CardLoader`), the cards it rendered, by their keys (`CardRenderKey`), and the pages it wrote,
/// each with the key it was made from and its file's stamp (`KeptPage`). The next build takes an
/// entry or a card whose key is the same rather than decoding or rendering it, and leaves a page
/// whose key is the same, and whose file nobody touched, as it is; keys hash everything an
/// entry, card or page is made of, so a cached build writes what a build without the cache
/// writes, byte for byte.
///
/// Two files. `cards-N.bin` holds the entries and the rendered cards (records, told apart by
/// their keys, each read back whole or not at all), appended build after build as they are made
/// (`CardsFileWriter`) and read one at a time as a build asks; when the records no build uses
/// any more come to a fifth of the output's size, the build writes the live ones into
/// `cards-(N+1).bin`. (A fifth of the output, not of the file: a card template's change makes a
/// third of the cards again, and writing all 220 MB of live cards anew at 100,000 cards then
/// cost more than the cards it made; live records, the cards and the entries they were read
/// from, are about a third of the output.) The
/// index, `build-cache.bin`, says which file, where each record is and its checksum, and the pages
/// of the output it was written for; it is replaced whole by a rename once the output is in place,
/// and checked whole before it is used. A cache that was cut short, damaged, written by
/// another CardFeed (another program file, even of the same version) or for another site is not used,
/// and the build says why in one note; a record whose bytes no longer match their checksum is made
/// again. A lock (`flock`) keeps a second build out of the folder while one uses it: the second
/// goes on without a cache.
final class BuildCache: Sendable {
    let folder: BuildCacheFolder
    /// What the index says of the previous build, read on a thread of its own while the build
    /// reads its cards (at 100,000 cards, 200,000 paths and keys take a tenth of a second):
    /// `open` has checked the whole file and read its head first.
    private let contents: Background<Contents>
    /// The generation of the cards' file, which names it; its bytes (mapped), of which `index`
    /// covers the first `cardsSize` (a build stopped while appending may have left more).
    private let generation: Int
    private let cardsFile: Data
    private let cardsSize: Int
    /// What the file says it is for: the format, the program and the site.
    private let identity: [String]
    private let lock: CacheLock

    /// The index's body, as read.
    private final class Contents: Sendable {
        /// Where each record the previous build used is in `cardsFile`, numbered in the order
        /// read.
        let index: [Int: (number: Int, record: CardRecord)]
        /// By number, the records this build took (read, or asked about by `hasCards`): with
        /// those it appended, what the cache keeps (`keptRecords`). Marked as both cores take
        /// them, where a set of their keys under a lock held up the other core.
        let taken: ConcurrentFlags
        /// The output folder the previous build wrote (a real path; "" when none has been), and
        /// the pages it made there, with their keys.
        let output: String
        let pages: [String: KeptPage]
        /// Why the body could not be read after all, when it could not (then it is taken as
        /// empty: everything is made again).
        let problem: String?

        /// `recordCount`: how many records the index lists, which numbers them (more than
        /// `index` holds when a key is listed twice: the last one is in `index`).
        init(index: [Int: (number: Int, record: CardRecord)] = [:], recordCount: Int = 0, output: String = "", pages: [String: KeptPage] = [:], problem: String? = nil) {
            self.index = index
            taken = ConcurrentFlags(count: max(recordCount, index.count))
            self.output = output
            self.pages = pages
            self.problem = problem
        }
    }

    /// A card's place in the cards' file.
    struct CardRecord: Sendable {
        var offset: Int
        var length: Int
        var checksum: UInt64
    }

    static let fileName = "build-cache.bin"
    private static let magic = Array("CardFeed build cache\n".utf8)
    private static let format = "format 5"
    /// The dead cards a cards' file may hold, as a share of the output's pages' size (of its
    /// live cards' size, without pages to measure), before it is written anew.
    private static let deadShare = 0.2

    private static func cardsFileName(_ generation: Int) -> String { "cards-\(generation).bin" }

    private init(folder: BuildCacheFolder, identity: [String], lock: CacheLock, generation: Int = 0, cardsFile: Data = Data(), cardsSize: Int = 0, contents: Background<Contents> = Background(finished: Contents())) {
        self.contents = contents
        self.cardsSize = cardsSize
        self.folder = folder
        self.identity = identity
        self.lock = lock
        self.generation = generation
        self.cardsFile = cardsFile
    }

    /// The pages of `output` as the last build that wrote it left them, with their keys (see
    /// `OutputTransaction.holds`); nil when the cache knows the pages of another folder.
    func pages(of output: URL) -> [String: KeptPage]? {
        let contents = contents.value
        return SiteFolder.realPath(output) == contents.output ? contents.pages : nil
    }

    /// Why the index's body could not be read, when it could not, though its head and checksum
    /// were good (then the build made everything again).
    var lateNote: String? {
        contents.value.problem.map { "the build cache \(SiteFolder.display(folder.url))/\(Self.fileName) \($0), so everything was made again" }
    }

    /// The cache in `folder` for a build of `site`, created if need be; nil when the folder cannot
    /// hold one or another build holds it. The note says why a cache was not used, or could not be.
    static func open(_ folder: BuildCacheFolder, site: URL) -> (cache: BuildCache?, note: String?) {
        let shown = SiteFolder.display(folder.url)
        let lock: CacheLock
        do {
            try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
            let tag = folder.url.appendingPathComponent(BuildCacheFolder.tagName)
            if !folder.isTagged { try Data(BuildCacheFolder.tagText.utf8).write(to: tag) }
            guard let locked = try CacheLock(path: folder.url.appendingPathComponent("lock").path) else {
                return (nil, "another build is using the cache in \(shown), so this one goes on without it")
            }
            lock = locked
        } catch {
            return (nil, "cannot keep a build cache in \(shown) (\(Self.reason(error))), so the build goes on without one")
        }
        removeLeftovers(in: folder.url)
        let identity = [format, "cardfeed \(CardFeedVersion.current)", "program \(programStamp())", "site \(SiteFolder.realPath(site))"]
        let file = folder.url.appendingPathComponent(fileName)
        let empty = BuildCache(folder: folder, identity: identity, lock: lock)
        guard FileManager.default.fileExists(atPath: file.path) else {
            removeCardFiles(in: folder.url, but: nil)
            return (empty, nil)
        }
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try InputFile.read(file))
        } catch {
            return (empty, "cannot read the build cache \(shown)/\(fileName) (\(error)), so everything is made again")
        }
        switch readHead(bytes, for: identity) {
        case .success(let (generation, size, body)):
            removeCardFiles(in: folder.url, but: generation)
            let cards = folder.url.appendingPathComponent(cardsFileName(generation))
            // Mapped, not read: a rebuild after one edit reads few of its cards.
            guard let mapped = try? Data(contentsOf: cards, options: .alwaysMapped), mapped.count >= size else {
                return (empty, "the build cache's \(shown)/\(cardsFileName(generation)) is missing or was cut short, so everything is made again")
            }
            let contents = Background { readBody(body) }
            return (BuildCache(folder: folder, identity: identity, lock: lock, generation: generation, cardsFile: mapped, cardsSize: size, contents: contents), nil)
        case .failure(let problem):
            removeCardFiles(in: folder.url, but: nil)
            return (empty, "the build cache \(shown)/\(fileName) \(problem.description), so everything is made again")
        }
    }

    /// The card the previous build kept under `key`; nil when it kept none, or its bytes no
    /// longer match their checksum (then it is made again).
    func card(_ key: Int) -> RenderedCard? {
        record(key) { reader throws(BinaryReader.Unreadable) in
            RenderedCard(html: try reader.byteArray(), description: try reader.optionalString(), words: try reader.optionalString())
        }
    }

    /// The decoded entry of a card file, and its messages, the previous build kept under `key`
    /// (see `CardLoader`); nil as for `card`.
    func entry(_ key: Int) -> KeptEntry? {
        record(key) { reader throws(BinaryReader.Unreadable) in try DecodedEntryRecord.read(from: &reader) }
    }

    /// The record under `key`, as `read` reads it; nil when there is none, its bytes no longer
    /// match their checksum, or `read` does not read them whole.
    private func record<Decoded>(_ key: Int, _ read: (inout BinaryReader) throws(BinaryReader.Unreadable) -> Decoded) -> Decoded? {
        let contents = contents.value
        guard let (number, record) = contents.index[key], let bytes = recordBytes(record) else { return nil }
        var reader = BinaryReader(bytes)
        guard let value = try? read(&reader), reader.atEnd else { return nil }
        contents.taken.set(number)
        return value
    }

    /// Whether the previous build kept a card under each of `keys` (its bytes unread, so
    /// unchecked: the build that reads it checks them); those it kept are taken. A chunk of keys
    /// at a time: both cores ask, and each look at the index (read on its own thread) counts a
    /// reference to it.
    func hasCards(_ keys: [Int]) -> [Bool] {
        let contents = contents.value
        return keys.map { key in
            guard let number = contents.index[key]?.number else { return false }
            contents.taken.set(number)
            return true
        }
    }

    private func recordBytes(_ record: CardRecord) -> [UInt8]? {
        Self.bytes(of: record, in: cardsFile, size: cardsSize)
    }

    /// The bytes of `record` in a cards' file's first `size` bytes; nil when it is not all there
    /// or they no longer match its checksum.
    private static func bytes(of record: CardRecord, in file: Data, size: Int) -> [UInt8]? {
        guard record.offset >= 0, record.length >= 0, record.offset + record.length <= size else { return nil }
        let bytes = [UInt8](file[record.offset..<(record.offset + record.length)])
        return StableHash.of(bytes: bytes) == record.checksum ? bytes : nil
    }

    /// A writer that appends the cards this build makes to the cards' file, from the end its
    /// index knows, or to a new file when there is none yet.
    func cardsWriter() throws -> CardsFileWriter {
        let generation = max(self.generation, 1)
        let file = folder.url.appendingPathComponent(Self.cardsFileName(generation))
        return try CardsFileWriter(generation: generation, file: file, from: self.generation > 0 ? cardsSize : nil)
    }

    /// Where each entry and card this build used is in the cards' file: those `writer`
    /// appended, and those it took from the previous build's, where they were. Worked out on a
    /// thread of its own while the build lists its output's pages (`save` takes both): 200,000
    /// records at 100,000 cards.
    func keptRecords(appendedBy writer: CardsFileWriter) -> Background<Result<KeptRecords, any Error>> {
        Background { [contents] in
            Result {
                let appended = try writer.finish()
                // A list, not a dictionary: 200,000 records are written one after another, and a
                // dictionary of them took as long to make as the index to write. (A key appended
                // twice, its record made again, is the last one's; so is a key taken and then
                // made again, as an entry that reads the time is.)
                let appendedKeys = Dictionary(appended.records.map { ($0.key, $0.record) }, uniquingKeysWith: { _, last in last })
                var records = appendedKeys.map { (key: $0.key, record: $0.value) }
                let contents = contents.value
                records.reserveCapacity(records.count + contents.index.count)
                for (key, (number, record)) in contents.index where contents.taken[number] && appendedKeys[key] == nil {
                    records.append((key, record))
                }
                return KeptRecords(records: records, end: appended.end)
            }
        }
    }

    /// The records of what a build used (`keptRecords`), and where the cards' file ends.
    struct KeptRecords: Sendable {
        /// Each key once, in no order.
        var records: [(key: Int, record: CardRecord)]
        var end: Int
    }

    /// Replaces the cache with what this build used: the entries and cards of `kept`, those it
    /// took from the cards' file and those `writer` appended to it (the live ones written into a
    /// new file when the dead ones come to a fifth of the output), and the pages of its output,
    /// with their keys and stamps. Returns a note when it cannot (the build has succeeded all
    /// the same; the next one makes everything again).
    /// A build that wrote no output (`check`) keeps the files the cache knew (`output` nil).
    func save(_ kept: Background<Result<KeptRecords, any Error>>, appendedBy writer: CardsFileWriter, output: (folder: URL, pages: [(path: String, page: KeptPage)])?) -> String? {
        do {
            let kept = try kept.value.get()
            var records = kept.records
            let live = records.reduce(0) { $0 + $1.record.length }
            var (generation, size) = (writer.generation, kept.end)
            let (written, pages) = output.map { (SiteFolder.realPath($0.folder), $0.pages) } ?? (contents.value.output, contents.value.pages.map { ($0.key, $0.value) })
            let pagesSize = pages.reduce(0) { $0 + Int($1.page.stamp.size) }
            if Double(size - live) > Double(pagesSize > 0 ? pagesSize : live) * Self.deadShare {
                (generation, size, records) = try compact(records, from: writer.file, into: writer.generation + 1)
            }
            // The records and pages in no order: the index is read back into dictionaries, and
            // sorting 200,000 paths took a tenth of a second.
            try writeIndex(generation: generation, cardsSize: size, records: records, output: written, pages: pages)
            if generation != writer.generation { try? FileManager.default.removeItem(at: writer.file) }
            return nil
        } catch {
            return "cannot keep the build cache in \(SiteFolder.display(folder.url)) (\(Self.reason(error))); the next build makes everything again"
        }
    }

    /// The note of a build that cannot write its cards into the cache (`cardsWriter`).
    func cannotKeep(_ error: any Error) -> String {
        "cannot keep a build cache in \(SiteFolder.display(folder.url)) (\(Self.reason(error))), so the build goes on without one"
    }

    /// The cards of `records`, read from `file`, written one after another into the cards' file
    /// of `generation` (a card whose bytes no longer match their checksum is left out: the next
    /// build makes it again). Returns that file's generation and size, and where each card is.
    private func compact(_ records: [(key: Int, record: CardRecord)], from file: URL, into generation: Int) throws -> (Int, Int, [(key: Int, record: CardRecord)]) {
        let source = try Data(contentsOf: file, options: .alwaysMapped)
        let records = records.sorted { $0.key < $1.key }
        let size = 1024
        let count = (records.count + size - 1) / size
        let chunks = ConcurrentResults<(bytes: [UInt8], records: [(key: Int, record: CardRecord)])>(count: count)
        Parallel.perform(iterations: count) { chunk in
            var bytes: [UInt8] = []
            var placed: [(key: Int, record: CardRecord)] = []
            for (key, record) in records[(chunk * size)..<min(records.count, (chunk + 1) * size)] {
                guard let card = Self.bytes(of: record, in: source, size: source.count) else { continue }
                placed.append((key, CardRecord(offset: bytes.count, length: card.count, checksum: record.checksum)))
                bytes.append(contentsOf: card)
            }
            chunks.set(chunk, (bytes, placed))
        }
        var compacted: [(key: Int, record: CardRecord)] = []
        compacted.reserveCapacity(records.count)
        var offset = 0
        for chunk in chunks.values {
            for (key, record) in chunk.records { compacted.append((key, CardRecord(offset: offset + record.offset, length: record.length, checksum: record.checksum))) }
            offset += chunk.bytes.count
        }
        try Self.replace(folder.url.appendingPathComponent(Self.cardsFileName(generation))) { partial in
            try Self.write(chunks.values.map(\.bytes), to: partial)
        }
        return (generation, offset, compacted)
    }

    private func writeIndex(generation: Int, cardsSize: Int, records: [(key: Int, record: CardRecord)], output: String, pages: [(path: String, page: KeptPage)]) throws {
        // The pages written on a thread of their own while this one writes the records.
        let pagesPart = Background {
            var writer = BinaryWriter(capacity: pages.count * 96 + output.utf8.count + 16)
            writer.write(output)
            writer.write(pages.count)
            for (path, page) in pages {
                writer.write(path)
                writer.write(page.key)
                let stamp = page.stamp
                writer.write(Int(Int64(bitPattern: stamp.device)))
                writer.write(Int(Int64(bitPattern: stamp.inode)))
                writer.write(Int(stamp.size))
                writer.write(Int(stamp.modified))
                writer.write(Int(stamp.modifiedNanoseconds))
            }
            return writer.takeBytes()
        }
        var writer = BinaryWriter(capacity: records.count * 32 + 4096)
        writer.write(identity.count)
        identity.forEach { writer.write($0) }
        writer.write(generation)
        writer.write(cardsSize)
        writer.write(records.count)
        for (key, record) in records {
            writer.write(key)
            writer.write(record.offset)
            writer.write(record.length)
            writer.write(record.checksum)
        }
        // The two parts written one after the other, not joined first: copying the pages' part
        // into fresh memory took a third of this step in a first build of 100,000 cards.
        let body = [writer.bytes, pagesPart.value]
        var trailer = BinaryWriter(capacity: 8)
        trailer.write(StableHash.of(parts: body))
        try Self.replace(folder.url.appendingPathComponent(Self.fileName)) { partial in try Self.write([Self.magic] + body + [trailer.bytes], to: partial) }
    }

    /// `chunks` written into a new `file`, one after another.
    private static func write(_ chunks: [[UInt8]], to file: URL) throws {
        let descriptor = Glibc.open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        for chunk in chunks {
            if let code = chunk.withByteView({ SystemCalls.write($0, to: descriptor) }) { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO) }
        }
    }

    /// Written beside it, then put in its place in one rename: a build stopped meanwhile leaves
    /// the previous file whole (and the next build removes the part written).
    private static func replace(_ file: URL, writing: (_ partial: URL) throws -> Void) throws {
        let partial = file.deletingLastPathComponent().appendingPathComponent("\(file.lastPathComponent).\(getpid()).partial")
        do {
            try writing(partial)
            guard rename(partial.path, file.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
    }

    /// Lets go of the cache: another build may use it from now.
    func release() { lock.release() }

    private struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// The index's head: its magic, the checksum of the whole, and what it is for (`identity`);
    /// then the generation and size of the cards' file, and a reader at the body that follows.
    private static func readHead(_ bytes: [UInt8], for identity: [String]) -> Result<(Int, Int, BinaryReader), Problem> {
        guard bytes.count >= magic.count + 8, Array(bytes[..<magic.count]) == magic else { return .failure(Problem(description: "is not a CardFeed build cache")) }
        let body = Array(bytes[magic.count..<(bytes.count - 8)])
        var trailer = BinaryReader(Array(bytes[(bytes.count - 8)...]))
        guard let checksum = try? trailer.uint64(), checksum == StableHash.of(bytes: body) else {
            return .failure(Problem(description: "is damaged or was cut short"))
        }
        var reader = BinaryReader(body)
        do throws(BinaryReader.Unreadable) {
            let count = try reader.int()
            var written: [String] = []
            for _ in 0..<max(0, min(count, 16)) { written.append(try reader.string()) }
            if written != identity {
                let differs = zip(written, identity).first { $0 != $1 }
                let what: String = switch differs?.1.split(separator: " ").first {
                case "cardfeed"?, "program"?, "format"?: "was made by another CardFeed (\(differs!.0)), not this one (\(differs!.1))"
                case "site"?: "was made for another site (\(differs!.0.dropFirst("site ".count)))"
                default: "is not one this CardFeed reads"
                }
                return .failure(Problem(description: what))
            }
            let generation = try reader.int()
            let cardsSize = try reader.int()
            guard generation >= 0, cardsSize >= 0 else { return .failure(Problem(description: "is damaged")) }
            return .success((generation, cardsSize, reader))
        } catch {
            return .failure(Problem(description: "is damaged or was cut short"))
        }
    }

    /// The index's body (`readHead` read what comes before): each card's record, then the
    /// output and its pages.
    private static func readBody(_ reader: BinaryReader) -> Contents {
        var reader = reader
        do throws(BinaryReader.Unreadable) {
            var index: [Int: (number: Int, record: CardRecord)] = [:]
            let cardCount = try reader.int()
            index.reserveCapacity(max(0, min(cardCount, reader.remaining / 32)))
            for number in 0..<max(0, cardCount) {
                let key = try reader.int()
                index[key] = (number, CardRecord(offset: try reader.int(), length: try reader.int(), checksum: try reader.uint64()))
            }
            let output = try reader.string()
            var pages: [String: KeptPage] = [:]
            let pageCount = try reader.int()
            pages.reserveCapacity(max(0, min(pageCount, reader.remaining / 56)))
            for _ in 0..<max(0, pageCount) {
                let path = try reader.string()
                let key = try reader.int()
                let stamp = FileStamp(
                    device: UInt64(bitPattern: Int64(try reader.int())), inode: UInt64(bitPattern: Int64(try reader.int())),
                    size: Int64(try reader.int()), modified: Int64(try reader.int()), modifiedNanoseconds: Int64(try reader.int()))
                pages[path] = KeptPage(key: key, stamp: stamp)
            }
            guard reader.atEnd else { return Contents(problem: "is damaged") }
            return Contents(index: index, recordCount: max(0, cardCount), output: output, pages: pages)
        } catch {
            return Contents(problem: "is damaged or was cut short")
        }
    }

    /// The running program's file, as its size and time: a program built again (a new commit of
    /// CardFeed, its version unchanged) may render the same card otherwise, so its cache is not used.
    private static func programStamp() -> String {
        guard let path = Pagefind.runningExecutable(), let stamp = FileStamp(path: path) else { return "unknown" }
        return "\(stamp.size) \(stamp.modified).\(stamp.modifiedNanoseconds)"
    }

    /// What a build stopped while writing the cache left: removed by the next one, holding the lock.
    private static func removeLeftovers(in folder: URL) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasSuffix(".partial") {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// The cards' files the index does not name: a build stopped between writing a new one and
    /// the index that names it left it.
    private static func removeCardFiles(in folder: URL, but kept: Int?) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        where name.hasPrefix("cards-") && name.hasSuffix(".bin") && name != kept.map(cardsFileName) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    private static func reason(_ error: any Error) -> String {
        if let error = error as? CocoaError, let underlying = error.underlying as? POSIXError { return String(cString: strerror(underlying.code.rawValue)) }
        if let error = error as? POSIXError { return String(cString: strerror(error.code.rawValue)) }
        return error.localizedDescription
    }
}

/// The lock on a cache folder: `flock` on a file in it, which the kernel releases when the
/// process ends, however it ends.
private final class CacheLock: Sendable {
    private let descriptor: Mutex<Int32>

    /// Nil when another process holds it.
    init?(path: String) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK { return nil }
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        self.descriptor = Mutex(descriptor)
    }

    func release() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            close(descriptor)
            descriptor = -1
        }
    }

    deinit { release() }
}
