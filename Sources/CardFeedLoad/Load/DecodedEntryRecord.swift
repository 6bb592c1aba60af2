import CardFeedModel
import CardFeedSystem

/// A decoded entry of a card file as a cache keeps it (`ReuseCaches`), under the key
/// `CardLoader` gives the entry's bytes: the entry, its messages, and when what it gave depends
/// on the time the file is read at (a REST `content_card` object's `time_to_live` counts from
/// it), that time: such an entry read at another time is decoded again, any other is not.
package struct KeptEntry: Sendable {
    package var entry: DecodedEntry
    package var diagnostics: [Diagnostic]
    package var readsTime: Bool
    /// The time it was read at, when it `readsTime` (nil also when there was none).
    package var time: Int64?

    package init(_ entry: DecodedEntry, _ diagnostics: [Diagnostic], readsTime: Bool = false, time: Int64? = nil) {
        self.entry = entry
        self.diagnostics = diagnostics
        self.readsTime = readsTime
        self.time = readsTime ? time : nil
    }

    /// Whether it is what decoding its bytes at `time` gives.
    package func holds(at time: Int64?) -> Bool { !readsTime || self.time == time }
}

/// A kept entry as the build cache writes it (see `CardRecord.swift` for the card and the
/// messages): a rebuild reads an entry whose bytes did not change from here rather than parsing
/// and checking it again.
package enum DecodedEntryRecord {
    package static func write(_ kept: KeptEntry, into writer: inout BinaryWriter) {
        switch kept.entry {
        case .card(let card):
            writer.write(0)
            let fieldsHash = card.write(into: &writer)
            writer.write(fieldsHash)
        case .removal(let id, let source):
            writer.write(1)
            writer.write(id)
            source.write(into: &writer)
        case .skipped(let reason, let id):
            writer.write(2)
            writer.write(reason.rawValue)
            writer.write(id)
        }
        writer.write(kept.diagnostics.count)
        for diagnostic in kept.diagnostics { diagnostic.write(into: &writer) }
        writer.write(kept.readsTime)
        writer.write(kept.time)
    }

    package static func read(from reader: inout BinaryReader) throws(BinaryReader.Unreadable) -> KeptEntry {
        let entry: DecodedEntry
        switch try reader.int() {
        case 0:
            let fields = try Card.Fields(reading: &reader)
            entry = .card(Card(fields, fieldsHash: try reader.int()))
        case 1:
            entry = .removal(id: try reader.string(), source: try CardSource(reading: &reader))
        case 2:
            guard let reason = SkipReason(rawValue: try reader.string()) else { throw .init() }
            entry = .skipped(reason, id: try reader.optionalString())
        default:
            throw .init()
        }
        let diagnostics = try reader.list { reader throws(BinaryReader.Unreadable) in try Diagnostic(reading: &reader) }
        let readsTime = try reader.bool()
        let time = try reader.optionalInt64()
        guard reader.atEnd else { throw .init() }
        return KeptEntry(entry, diagnostics, readsTime: readsTime, time: time)
    }
}
