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
/// `append` is called from both cores at once; the records are gathered into a buffer, written
/// a few megabytes at a time.
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
    private let keptEntries = Mutex<[(key: Int, entry: KeptEntry)]>([])
    private let writingEntries = Mutex<Background<Void>?>(nil)

    private struct State {
        var buffer: [UInt8] = []
        /// Where `buffer` goes in the file.
        var bufferStart: Int
        /// Buffers written out, emptied, for `buffer` to take again: a new one each time meant
        /// fresh memory, every page of it faulted in (the 300 MB a first build of 100,000 cards
        /// appends), where two buffers taken in turn are faulted in once.
        var spare: [[UInt8]] = []
        /// In the order they were appended: growing a dictionary of 200,000 under the lock held
        /// up the other core.
        var records: [(key: Int, record: BuildCache.CardRecord)] = []
        var failure: Int32?
    }

    private static let flushSize = 4 << 20

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
        state = Mutex(State(bufferStart: offset ?? 0))
    }

    deinit { close(descriptor) }

    /// A card's record, written after `writer`'s bytes: what `BuildCache.card` reads back.
    static func write(_ card: RenderedCard, into writer: inout BinaryWriter) {
        writer.write(card.html)
        writer.write(card.description)
        writer.write(card.words)
    }

    func append(_ card: RenderedCard, for key: Int) {
        append(for: key) { Self.write(card, into: &$0) }
    }

    /// A decoded entry of a card file and its messages, to append (`DecodedEntryRecord`, what
    /// `BuildCache.entry` reads back) once the load is done (`writeKeptEntries`).
    func keep(_ entry: KeptEntry, for key: Int) {
        keptEntries.withLock { $0.append((key, entry)) }
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
                for (key, entry) in entries { append(for: key) { DecodedEntryRecord.write(entry, into: &$0) } }
            }
        }
    }

    /// Returns once every entry kept is appended: before the cache's lock is let go, after which
    /// another build may append to the file.
    func waitForKeptEntries() {
        writeKeptEntries()
        writingEntries.withLock { $0 }?.value
    }

    /// Appends the record `write` writes under `key`.
    private func append(for key: Int, _ record: (inout BinaryWriter) -> Void) {
        // The record is written into the buffer itself, under the lock: made apart and then
        // appended, its 216 MB at 100,000 cards were copied once more.
        var full: (bytes: [UInt8], start: Int)? = state.withLock { state in
            let start = state.buffer.count
            var writer = BinaryWriter(continuing: state.buffer)
            state.buffer = []
            record(&writer)
            state.buffer = writer.takeBytes()
            let checksum = StableHash.of(bytes: state.buffer[start...])
            state.records.append((key, BuildCache.CardRecord(offset: state.bufferStart + start, length: state.buffer.count - start, checksum: checksum)))
            guard state.buffer.count >= Self.flushSize else { return nil }
            defer {
                state.bufferStart += state.buffer.count
                state.buffer = state.spare.popLast() ?? []
                state.buffer.reserveCapacity(Self.flushSize + 65536)
            }
            return (state.buffer, state.bufferStart)
        }
        // Written outside the lock: the other core goes on appending behind it.
        guard let start = full?.start else { return }
        write(full!.bytes, at: start)
        // Taken out of `full`, the buffer has no other owner, and is emptied in place.
        var emptied = full.take()!.bytes
        emptied.removeAll(keepingCapacity: true)
        state.withLock { [emptied] in $0.spare.append(emptied) }
    }

    private func write(_ bytes: [UInt8], at offset: Int) {
        if let code = SystemCalls.write(bytes, to: descriptor, at: offset) { state.withLock { $0.failure = $0.failure ?? code } }
    }

    /// Writes what waits in the buffer. Returns every record appended, with its key, in order,
    /// and where the file ends; throws when a write failed (the cache is then not kept).
    func finish() throws -> (records: [(key: Int, record: BuildCache.CardRecord)], end: Int) {
        waitForKeptEntries()
        let (rest, start) = state.withLock { state in
            defer {
                state.bufferStart += state.buffer.count
                state.buffer = []
            }
            return (state.buffer, state.bufferStart)
        }
        write(rest, at: start)
        return try state.withLock { state in
            if let failure = state.failure { throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO) }
            return (state.records, state.bufferStart)
        }
    }
}
