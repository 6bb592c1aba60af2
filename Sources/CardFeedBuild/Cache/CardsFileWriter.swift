import Foundation
import Synchronization
import CardFeedLoad
import CardFeedModel
import CardFeedRender
import CardFeedSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The cards a build makes, appended to a cards' file of the build cache as they render (see
/// `BuildCache`), rather than kept in memory until the build ends: a first build of 100,000
/// cards held some 500 MB of them. Each card is one record (its HTML, description and words)
/// with a checksum; the index the build writes at its end says where each is. Until then the
/// bytes are past the end the index knows, and a build stopped meanwhile leaves them unread.
///
/// Records come a batch at a time (`append`, from both cores at once): each batch is written
/// into a buffer of its own, given its place at the file's end under the lock, and written
/// there outside it, so that a core waits for the other only to be given a place. (One record
/// at a time into a buffer both shared took the lock 200,000 times in a first build.)
///
/// The entries a build decodes are kept (`keep`) and written once the cards are loaded
/// (`writeKeptEntries`), on a thread of their own: the load keeps both cores busy, the rules and
/// the selection after it only one, and a first build of 100,000 cards spent a tenth of a
/// second of the load writing entries.
final class CardsFileWriter: Sendable {
    let generation: Int
    let file: URL
    private let descriptor: Int32
    private let state: Mutex<State>
    private let keptEntries = Mutex<[(key: Int, value: KeptEntry)]>([])
    private let writingEntries = Mutex<Background<Void>?>(nil)

    private struct State {
        /// Where the next batch goes in the file.
        var end: Int
        /// Buffers written out, emptied, for the next batches to take again: a new one each
        /// time meant fresh memory, every page of it faulted in (the 300 MB a first build of
        /// 100,000 cards appends), where a few taken in turn are faulted in once.
        var spare: [[UInt8]] = []
        /// In the order they were given their place: growing a dictionary of 200,000 under the
        /// lock held up the other core.
        var records: [(key: Int, record: BuildCache.CardRecord)] = []
        var failure: Int32?
    }

    /// About how much of the entries goes to the file at a time.
    private static let entriesBatchSize = 4 << 20

    /// Appends to `file` from `offset` (what is past it is a stopped build's, and is cut), or
    /// writes it anew (`offset` nil).
    init(generation: Int, file: URL, from offset: Int?) throws {
        self.generation = generation
        self.file = file
        let flags = offset == nil ? O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC : O_WRONLY | O_CLOEXEC
        descriptor = open(file.path, flags, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        if let offset, ftruncate(descriptor, off_t(offset)) != 0 {
            let code = errno
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        state = Mutex(State(end: offset ?? 0))
    }

    deinit { close(descriptor) }

    /// A card's record, written after `writer`'s bytes: what `BuildCache.card` reads back.
    static func write(_ card: RenderedCard, into writer: inout BinaryWriter) {
        writer.write(card.html)
        writer.write(card.description)
        writer.write(card.words)
    }

    /// Appends the records of `cards`, rendered by this build.
    func append(_ cards: [(key: Int, value: RenderedCard)]) {
        append(upTo: cards.count, bytes: .max, key: { cards[$0].key }) { Self.write(cards[$0].value, into: &$1) }
    }

    /// Decoded entries of a card file and their messages, to append (`DecodedEntryRecord`, what
    /// `BuildCache.entry` reads back) once the load is done (`writeKeptEntries`).
    func keep(_ entries: [(key: Int, value: KeptEntry)]) {
        keptEntries.withLock { $0 += entries }
    }

    /// Appends the entries kept so far, on a thread of its own (`finish` and
    /// `waitForKeptEntries` wait for it).
    func writeKeptEntries() {
        let entries = keptEntries.withLock { kept in
            defer { kept = [] }
            return kept
        }
        guard !entries.isEmpty else { return }
        writingEntries.withLock { writing in
            let before = writing
            writing = Background { [self] in
                before?.value
                var start = 0
                while start < entries.count {
                    let first = start
                    start += append(upTo: entries.count - first, bytes: Self.entriesBatchSize, key: { entries[first + $0].key }) { offset, writer in
                        DecodedEntryRecord.write(entries[first + offset].value, into: &writer)
                    }
                }
            }
        }
    }

    /// Returns once every entry kept is appended: before the cache's lock is let go, after which
    /// another build may append to the file.
    func waitForKeptEntries() {
        writeKeptEntries()
        writingEntries.withLock { $0 }?.value
    }

    /// Appends one batch of records, the one at each offset from 0 under `key(offset)` as `write`
    /// writes it, until `count` are written or the batch holds `bytes`. Returns how many it wrote.
    @discardableResult
    private func append(upTo count: Int, bytes limit: Int, key: (Int) -> Int, _ write: (Int, inout BinaryWriter) -> Void) -> Int {
        guard count > 0 else { return 0 }
        var writer = BinaryWriter(continuing: state.withLock { $0.spare.popLast() } ?? [])
        // Where each record is in the batch, with its checksum.
        var placed: [(key: Int, record: BuildCache.CardRecord)] = []
        var offset = 0
        while offset < count, writer.bytes.count < limit {
            let start = writer.bytes.count
            write(offset, &writer)
            let checksum = StableHash.of(bytes: writer.bytes[start...])
            placed.append((key(offset), BuildCache.CardRecord(offset: start, length: writer.bytes.count - start, checksum: checksum)))
            offset += 1
        }
        var batch = writer.takeBytes()
        let place = state.withLock { state in
            let place = state.end
            state.end += batch.count
            state.records.reserveCapacity(state.records.count + placed.count)
            for (key, record) in placed {
                state.records.append((key, BuildCache.CardRecord(offset: place + record.offset, length: record.length, checksum: record.checksum)))
            }
            return place
        }
        // Written outside the lock: the other core goes on appending behind it.
        if let code = SystemCalls.write(batch, to: descriptor, at: place) { state.withLock { $0.failure = $0.failure ?? code } }
        batch.removeAll(keepingCapacity: true)
        state.withLock { [batch] in $0.spare.append(batch) }
        return offset
    }

    /// Returns every record appended, with its key, in order, and where the file ends; throws
    /// when a write failed (the cache is then not kept).
    func finish() throws -> (records: [(key: Int, record: BuildCache.CardRecord)], end: Int) {
        waitForKeptEntries()
        return try state.withLock { state in
            if let failure = state.failure { throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO) }
            return (state.records, state.end)
        }
    }
}
