import Testing
@testable import CardFeedLoad
@testable import CardFeedModel
import CardFeedSystem

/// The build cache keeps each decoded entry of a card file with its messages (`CardRecord.swift`,
/// `DecodedEntryRecord`) and a rebuild takes it back instead of decoding the entry again: what
/// it reads must be what was written, every field of it. The card's fields are found from its
/// type (`ModelEdits`), so a field added to `Card.Fields` and not to the record fails here.
@Suite struct CardRecordTests {
    static func sampleCard() -> Card.Fields {
        var card = ReuseKeyTests.sampleCard()
        card.source.offset = 412
        card.source.blankLinkKey = "url"
        card.viewed = true
        card.pinned = true
        card.dismissed = true
        card.removed = true
        card.isTest = true
        card.clicked = true
        card.descriptionFormat = .text
        return card
    }

    static func sampleDiagnostic() -> Diagnostic {
        var diagnostic = Diagnostic(.warning, file: "cards/a.json", line: 3, column: 7, cardIndex: 2, cardID: "x", field: "image_alt", message: "missing")
        diagnostic.summary = "missing on some cards"
        diagnostic.cardOffset = 120
        diagnostic.keysSetAside = ["ca", "created"]
        return diagnostic
    }

    static func readBack(_ decoded: (DecodedEntry, [Diagnostic])) throws -> (DecodedEntry, [Diagnostic]) {
        let kept = try readBack(KeptEntry(decoded.0, decoded.1))
        return (kept.entry, kept.diagnostics)
    }

    static func readBack(_ kept: KeptEntry) throws -> KeptEntry {
        var writer = BinaryWriter()
        DecodedEntryRecord.write(kept, into: &writer)
        var reader = BinaryReader(writer.bytes)
        return try DecodedEntryRecord.read(from: &reader)
    }

    /// An entry whose card depends on the time its file is read at (a REST object's
    /// `time_to_live`) keeps that time, and holds at it alone; any other holds at any time.
    @Test func theTimeAnEntryWasReadAtIsKeptWhenItCounts() throws {
        let card = DecodedEntry.card(Card(Self.sampleCard()))
        for time: Int64? in [nil, 1_800_000_000] {
            let timed = try Self.readBack(KeptEntry(card, [], readsTime: true, time: time))
            #expect(timed.readsTime && timed.time == time)
            #expect(timed.holds(at: time) && !timed.holds(at: 1_700_000_000))
        }
        let untimed = try Self.readBack(KeptEntry(card, [], readsTime: false, time: 1_800_000_000))
        #expect(!untimed.readsTime && untimed.time == nil && untimed.holds(at: 1) && untimed.holds(at: nil))
    }

    @Test func everyFieldOfACardIsReadBackAsWritten() throws {
        // `source`, behind its `KeyExempt`, is edited on its own.
        let edits = try ModelEdits(Self.sampleCard(), isExempt: ReuseKeyTests.isExempt)
        let sources = try ModelEdits(Self.sampleCard().source)
        #expect(edits.problems.isEmpty && sources.problems.isEmpty, "\(edits.problems) \(sources.problems)")
        #expect(edits.edits.count > 30 && sources.edits.count >= 5)
        let cards = edits.edits.map(\.value) + sources.edits.map { edit in
            var card = Self.sampleCard()
            card.source = edit.value
            return card
        }
        for card in [Self.sampleCard()] + cards {
            let (entry, diagnostics) = try Self.readBack((.card(Card(card)), []))
            guard case .card(let read) = entry else { Issue.record("not a card"); continue }
            // `source` is left out of a card's `==` (see `KeyExempt`).
            #expect(read.fields == card && read.source == card.source, "\(card)")
            #expect(diagnostics.isEmpty)
        }
        #expect(sources.edits.contains { $0.path == "blankLinkKey" })
    }

    /// A card keeps the hash of its fields (`Card.fieldsHash`) through the cache and through a
    /// move to another place in its file, and a field set gives the hash of its new fields: a
    /// rule that edits a card must not leave it with its old key.
    @Test func aCardsFieldsHashIsKeptUntilAFieldIsSet() throws {
        let fields = Self.sampleCard()
        // A card written before its hash is asked for: the cache works it out from the bytes it writes.
        let (unhashed, _) = try Self.readBack((.card(Card(fields)), []))
        guard case .card(let readUnhashed) = unhashed else { Issue.record("not a card"); return }
        #expect(readUnhashed.fieldsHash == fields.stableHash)
        let hashed = Card(fields)
        #expect(hashed.fieldsHash == fields.stableHash)
        let (entry, _) = try Self.readBack((.card(hashed), []))
        guard case .card(var read) = entry else { Issue.record("not a card"); return }
        #expect(read.fieldsHash == fields.stableHash)
        var moved = CardSource(file: "other.json", index: 40, order: 90, offset: 5000)
        moved.blankLinkKey = "uri"
        read.source = moved
        #expect(read.source == moved && read.fieldsHash == fields.stableHash)
        // Kept, not worked out again: a hash the card was given (here not its fields' own) stays.
        var given = Card(fields, fieldsHash: 42)
        given.source = moved
        #expect(given.fieldsHash == 42)
        read.title = "Set by a rule"
        var edited = fields
        edited.title = "Set by a rule"
        #expect(read.fieldsHash == edited.stableHash && read.fieldsHash != fields.stableHash)
        read[.description] = .text("Set by a rule too")
        edited.description = "Set by a rule too"
        #expect(read.fieldsHash == edited.stableHash)
    }

    @Test func everyFieldOfAMessageIsReadBackAsWritten() throws {
        let sample = Self.sampleDiagnostic()
        // Each is set in the sample and edited below: a field added to the type is counted here.
        let fields = Mirror(reflecting: sample).children.compactMap(\.label)
        #expect(fields == ["severity", "file", "line", "column", "cardIndex", "cardID", "field", "message", "summary", "cardOffset", "keysSetAside"])
        var edited: [Diagnostic] = [sample]
        func edit(_ change: (inout Diagnostic) -> Void) { var copy = sample; change(&copy); edited.append(copy) }
        edit { $0.severity = .error }
        edit { $0.file = "b.json" }
        edit { $0.line = nil }
        edit { $0.column = 8 }
        edit { $0.cardIndex = nil }
        edit { $0.cardID = nil }
        edit { $0.field = nil }
        edit { $0.message = "other" }
        edit { $0.summary = nil }
        edit { $0.cardOffset = nil }
        edit { $0.keysSetAside = nil }
        edit { $0.keysSetAside = [] }
        #expect(Set(edited).count == edited.count)
        let (_, read) = try Self.readBack((.skipped(.invalid, id: nil), edited))
        #expect(read == edited)
    }

    @Test func removalsAndSkippedEntriesAreReadBackAsWritten() throws {
        let source = CardSource(file: "sync.json", index: 4, order: 9, offset: 77)
        guard case .removal(let id, let readSource) = try Self.readBack((.removal(id: "gone", source: source), [])).0 else {
            Issue.record("not a removal")
            return
        }
        #expect(id == "gone" && readSource == source)
        for reason in SkipReason.allCases {
            for id in [nil, "x"] {
                guard case .skipped(let readReason, let readID) = try Self.readBack((.skipped(reason, id: id), [Self.sampleDiagnostic()])).0 else {
                    Issue.record("not skipped")
                    continue
                }
                #expect(readReason == reason && readID == id)
            }
        }
    }

    /// An entry taken from the cache at another place in its file (cards added before it) gets
    /// its new place, and its messages about the card point there; what the decoder read of the
    /// card (the key that held a blank link) stays.
    @Test func anEntryTakenBackIsPutAtItsNewPlace() {
        var card = Self.sampleCard()
        card.source = CardSource(file: "cards.json", index: 0, order: 0, offset: 1)
        card.source.blankLinkKey = "url"
        var aboutCard = Diagnostic(.warning, file: "cards.json", cardIndex: 0, cardID: "sample", field: "url", message: "blank")
        aboutCard.cardOffset = 1
        let aboutFile = Diagnostic(.warning, file: "cards.json", line: 1, column: 1, message: "about the file")
        let moved = CardSource(file: "cards.json", index: 5, order: 9, offset: 300)
        let (entry, diagnostics) = CardLoader.relocate(KeptEntry(.card(Card(card)), [aboutCard, aboutFile]), to: moved)
        guard case .card(let placed) = entry else { Issue.record("not a card"); return }
        #expect(placed.source.index == 5 && placed.source.order == 9 && placed.source.offset == 300 && placed.source.blankLinkKey == "url")
        #expect(placed.fields == card)
        #expect(diagnostics[0].cardIndex == 5 && diagnostics[0].cardOffset == 300)
        #expect(diagnostics[1] == aboutFile)
        let (removal, _) = CardLoader.relocate(KeptEntry(.removal(id: "gone", source: card.source), []), to: moved)
        guard case .removal(let id, let source) = removal else { Issue.record("not a removal"); return }
        #expect(id == "gone" && source == moved)
    }

    /// A record cut short anywhere, or with a byte changed where a kind or a flag is, is an
    /// error, never a crash or another card.
    @Test func aDamagedRecordIsAnErrorNeverACard() {
        var writer = BinaryWriter()
        DecodedEntryRecord.write(KeptEntry(.card(Card(Self.sampleCard())), [Self.sampleDiagnostic()], readsTime: true, time: 5), into: &writer)
        let bytes = writer.bytes
        for length in 0..<bytes.count {
            var reader = BinaryReader(Array(bytes[..<length]))
            #expect(throws: BinaryReader.Unreadable.self) { try DecodedEntryRecord.read(from: &reader) }
        }
        var longer = BinaryReader(bytes + [0])
        #expect(throws: BinaryReader.Unreadable.self) { try DecodedEntryRecord.read(from: &longer) }
        var kind = bytes
        kind[0] = 7
        var reader = BinaryReader(kind)
        #expect(throws: BinaryReader.Unreadable.self) { try DecodedEntryRecord.read(from: &reader) }
    }
}
