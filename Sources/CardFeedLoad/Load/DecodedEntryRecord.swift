import CardFeedModel
import CardFeedSystem

/// A decoded entry of a card file and its messages as the build cache keeps them (see
/// `CardRecord.swift` for the card and the messages), under the key `CardLoader` gives the
/// entry's bytes: a rebuild reads an entry whose bytes did not change from here rather than
/// parsing and checking it again.
package enum DecodedEntryRecord {
    package static func write(_ decoded: (DecodedEntry, [Diagnostic]), into writer: inout BinaryWriter) {
        switch decoded.0 {
        case .card(let card):
            writer.write(0)
            card.fields.write(into: &writer)
        case .removal(let id, let source):
            writer.write(1)
            writer.write(id)
            source.write(into: &writer)
        case .skipped(let reason, let id):
            writer.write(2)
            writer.write(reason.rawValue)
            writer.write(id)
        }
        writer.write(decoded.1.count)
        for diagnostic in decoded.1 { diagnostic.write(into: &writer) }
    }

    package static func read(from reader: inout BinaryReader) throws(BinaryReader.Unreadable) -> (DecodedEntry, [Diagnostic]) {
        let entry: DecodedEntry
        switch try reader.int() {
        case 0:
            entry = .card(Card(try Card.Fields(reading: &reader)))
        case 1:
            entry = .removal(id: try reader.string(), source: try CardSource(reading: &reader))
        case 2:
            guard let reason = SkipReason(rawValue: try reader.string()) else { throw .init() }
            entry = .skipped(reason, id: try reader.optionalString())
        default:
            throw .init()
        }
        let diagnostics = try reader.list { reader throws(BinaryReader.Unreadable) in try Diagnostic(reading: &reader) }
        guard reader.atEnd else { throw .init() }
        return (entry, diagnostics)
    }
}
