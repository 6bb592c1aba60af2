import Foundation
import Synchronization
import CardFeedModel
import CardFeedSystem

/// The cards of a site, read from `SITE/cards.json` and every `SITE/cards/**/*.json`.
public struct LoadedCards: Sendable {
    /// Every card that survived reading, in file order, duplicates resolved, removals applied.
    public var cards: [Card] = []
    /// The files read, as shown in messages.
    public var files: [String] = []
    /// Entries read from all files, cards and removals alike.
    public var entriesRead = 0
    /// Of those, the entries taken as a cache kept them (`load(reusing:)`), not decoded again.
    public var entriesReused = 0
    public var skipped: [SkipReason: Int] = [:]
    /// The first ids of the cards skipped for each reason that has a card id to name.
    public var skippedIDs = SkippedExamples()
    public var diagnostics = Diagnostics()
    /// What became of the entries of the id the loader follows (`CardLoader.following`).
    public var history: [CardEvent] = []
    /// Each file's bytes as they were read, by its name in messages: where a message about a
    /// card finds its line (`Diagnostics.locateCards(in:)`), rather than in the file read again
    /// (a tenth of a second at 100,000 cards), which may have changed meanwhile. The build lets
    /// go of them once its messages are located.
    public var fileBytes: [String: Data] = [:]
}

/// Step 1 of a build: files -> [Card] + diagnostics.
public struct CardLoader: Sendable {
    public let site: SiteFolder
    /// Schemes card links may use: the web ones and the site's app schemes.
    public var linkSchemes: Set<String>
    /// The site's time zone, which a card's time without an offset is read in.
    public var timeZone: SiteTimeZone = .utc
    /// How titles and descriptions are shown unless a card's extras say otherwise.
    public var descriptions: DescriptionFormat = .markdown

    /// The build's time when the command line gave it (`--now`): a REST `content_card` object's
    /// `time_to_live` counts from it, else from the time its file was last changed, when the
    /// object gives no `created` or `send_at` (see `RESTContentCard`).
    public var givenNow: Int64?

    /// A card id whose entries' history the load keeps (`cardfeed explain`); nil for none.
    public var following: String?

    /// Told, after each batch, how many entries have been read and what share of the card
    /// files' bytes that is.
    public var progress: (@Sendable (_ entries: Int, _ fraction: Double) -> Void)?

    public init(site: SiteFolder, linkSchemes: Set<String> = URLCheck.linkSchemes) {
        self.site = site
        self.linkSchemes = linkSchemes
    }

    /// The decoder this loader uses, also for the values that rules set.
    package func decoder() -> CardDecoder {
        CardDecoder(assets: .listed(Set(site.assetFiles())), linkSchemes: linkSchemes, timeZone: timeZone, descriptions: descriptions)
    }

    /// Every card file read and decoded. With `cache` (serve's, or the build cache's on disk),
    /// an entry of a list of cards whose bytes, file and decoder are those of an entry the
    /// previous build decoded is taken from it instead (an envelope's entries are decoded again).
    package func load(reusing cache: ReuseCache<KeptEntry>? = nil) -> LoadedCards {
        var result = LoadedCards()
        let files: [URL]
        do {
            files = try site.cardFiles()
        } catch {
            result.diagnostics.append(Diagnostic(.error, file: site.display(site.cardsFolder), message: "cannot list card files: \(error.localizedDescription)"))
            return result
        }
        if files.isEmpty {
            result.diagnostics.append(Diagnostic(
                .warning, file: site.display(site.root),
                message: "no card files: put cards in cards.json or in .json files under cards/"))
        }
        let decoder = decoder()
        // What every entry is decoded with, in the key of each (see `readEntries`): the same in
        // every process, for a cache on disk.
        let decoderKey = cache == nil ? 0 : StableHash.reflecting(decoder)
        let reused = Counter()
        // Batches are merged on a thread of their own while the next is decoded on both cores:
        // merging is too long to wait for between batches.
        let merging = Merging(result)
        merging.state.withLock { $0.merger.following = following }
        var entriesHandedOver = result.entriesRead
        // The files' sizes give the share of the load done; asked only when someone is told it.
        let sizes = progress == nil ? files.map { _ in 0 } : files.map(Self.size)
        let allBytes = Double(max(sizes.reduce(0, +), 1))
        var bytesBefore = 0
        for (url, size) in zip(files, sizes) {
            let file = site.display(url)
            var fileProblems = Diagnostics()
            var fileEntries = 0
            var fileEntriesRead = 0
            var fileIsSync = false
            let bytes = readEntries(
                url, file: file, decoder: decoder, reusing: cache, decoderKey: decoderKey, reused: reused, firstOrder: { entriesHandedOver },
                into: &fileProblems,
                expect: { count, sync in
                    fileEntries = count
                    fileIsSync = sync != nil
                    merging.queue.sync {
                        merging.state.withLock { state in
                            state.merger.reserve(count, in: &state.result)
                            state.merger.beginFile(sync, file: file, into: &state.result)
                        }
                    }
                }
            ) { decoded in
                entriesHandedOver += decoded.count
                let merge: @Sendable () -> Void = {
                    merging.state.withLock { state in
                        state.result.entriesRead += decoded.count
                        for (entry, diagnostics) in decoded {
                            for diagnostic in diagnostics {
                                if diagnostic.keysSetAside != nil { state.keysSetAside.add(diagnostic) } else { state.result.diagnostics.append(diagnostic) }
                            }
                            state.merger.add(entry, into: &state.result)
                            if state.merger.following != nil { state.merger.follow(entry, diagnostics) }
                        }
                    }
                }
                // A small file's cards are merged on this thread: handing them to another costs
                // more than decoding them, which a folder of one-card files would pay per file.
                if fileEntries > Self.chunkSize { merging.queue.async(execute: merge) } else { merging.queue.sync(execute: merge) }
                fileEntriesRead += decoded.count
                let shareOfFile = Double(fileEntriesRead) / Double(max(fileEntries, fileEntriesRead))
                progress?(entriesHandedOver, (Double(bytesBefore) + Double(size) * shareOfFile) / allBytes)
            }
            merging.queue.sync {
                merging.state.withLock { state in
                    state.result.files.append(file)
                    state.result.fileBytes[file] = bytes
                    if let warning = state.keysSetAside.warning(sync: fileIsSync) { state.result.diagnostics.append(warning) }
                    state.result.diagnostics.append(contentsOf: fileProblems)
                }
            }
            bytesBefore += size
        }
        return merging.queue.sync {
            merging.state.withLock { state in
                state.merger.applyRemovals(to: &state.result)
                state.result.history = state.merger.history
                state.result.entriesReused = reused.value
                return state.result
            }
        }
    }

    /// What has been merged so far, in the order of `queue`; the mutex, never contended, is what
    /// lets the compiler check that the threads share it safely.
    private final class Merging: Sendable {
        let queue = DispatchQueue(label: "cardfeed.merge")
        let state: Mutex<(result: LoadedCards, merger: CardMerger, keysSetAside: KeysSetAside)>
        init(_ result: LoadedCards) { state = Mutex((result, CardMerger(), KeysSetAside())) }
    }

    /// When a file was last changed, in Unix seconds; nil when it cannot be read.
    private static func modificationTime(_ url: URL) -> Int64? {
        var info = stat()
        return stat(url.path, &info) == 0 ? Int64(info.st_mtim.tv_sec) : nil
    }

    /// A file's size in bytes (0 when it cannot be read, which reading it will report).
    private static func size(_ url: URL) -> Int {
        var info = stat()
        return stat(url.path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Entries one core decodes at a time; a file of no more is decoded on one.
    static let chunkSize = 256

    /// Entries decoded at a time: large enough to keep both cores busy, small enough that a
    /// file of a million cards never holds all of its parsed values at once.
    static let batchSize = 4096

    /// Reads a file's entries, whatever its envelope, and hands them over decoded, in file
    /// order, a batch at a time. Returns the file's bytes, when it could be read.
    private func readEntries(
        _ url: URL, file: String, decoder: CardDecoder, reusing cache: ReuseCache<KeptEntry>?, decoderKey: Int, reused: Counter, firstOrder: () -> Int, into diagnostics: inout Diagnostics,
        expect: (Int, ContentCardsSync?) -> Void = { _, _ in }, _ body: ([(DecodedEntry, [Diagnostic])]) -> Void
    ) -> Data? {
        let data: Data
        do {
            data = try InputFile.read(url, mapped: true)
        } catch {
            diagnostics.append(Diagnostic(.error, file: file, message: error.description))
            return nil
        }
        if !data.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) {  // stops at the first byte of content
            diagnostics.append(Diagnostic(.error, file: file, message: "the file is empty; expected a card, a list of cards or an envelope such as {\"cards\": [...]}"))
            return data
        }
        let restTime = givenNow ?? Self.modificationTime(url)
        // With a cache, an entry of a list of cards whose bytes did not change is not parsed or
        // decoded again (serve, and a build with a cache on disk). Its key: the bytes, hashed
        // with this seed of the file (its messages name it) and the decoder; not the time it is
        // read at, which a CI job's new checkout changes, and only a REST object reads
        // (`KeptEntry`).
        let fileKey = cache == nil ? 0 : UInt64(bitPattern: Int64(StableHasher.hash { hasher in
            hasher.combine("decoded entry")
            hasher.combine(file)
            hasher.combine(decoderKey)
        }))
        func decodeInParallel(
            _ count: Int, _ value: @Sendable (Int) throws(JSONSyntaxError) -> JSONValue, startIndex: Int, offset place: @Sendable (Int) -> Int?,
            keyStyle: FieldReader.KeyStyle = .long
        ) throws(JSONSyntaxError) -> [(DecodedEntry, [Diagnostic])] {
            let order = firstOrder()
            let decoded = ConcurrentResults<Result<(DecodedEntry, [Diagnostic]), JSONSyntaxError>>(count: count)
            Parallel.perform(iterations: (count + Self.chunkSize - 1) / Self.chunkSize) { chunk in
                for offset in chunk * Self.chunkSize..<min(count, (chunk + 1) * Self.chunkSize) {
                    let source = CardSource(file: file, index: startIndex + offset, order: order + offset, offset: place(offset))
                    decoded.set(offset, Result { () throws(JSONSyntaxError) in decoder.decode(try value(offset), source: source, keyStyle: keyStyle, restTime: restTime) })
                }
            }
            // The first syntax error in file order, so that the message is the same on every run.
            return try decoded.values.map { result throws(JSONSyntaxError) in try result.get() }
        }
        data.withByteView { bytes in
            do throws(JSONSyntaxError) {
                if let elements = JSONParser.topLevelArrayElements(bytes) {
                    expect(elements.count, nil)
                    // A bare list of cards, the usual shape of a large file: parsed and decoded
                    // on both cores, a batch at a time.
                    for start in stride(from: 0, to: elements.count, by: Self.batchSize) {
                        let batch = Array(elements[start..<min(elements.count, start + Self.batchSize)])
                        guard let cache else {
                            body(try decodeInParallel(batch.count, { offset throws(JSONSyntaxError) in try JSONParser.parseElement(bytes, batch[offset]) }, startIndex: start, offset: { batch[$0].lowerBound }))
                            continue
                        }
                        let order = firstOrder()
                        let decoded = ConcurrentResults<Result<(DecodedEntry, [Diagnostic]), JSONSyntaxError>>(count: batch.count)
                        Parallel.perform(iterations: (batch.count + Self.chunkSize - 1) / Self.chunkSize) { chunk in
                            // Kept for the next build a chunk at a time (see `ReuseCache.store(contentsOf:)`).
                            var made: [(key: Int, value: KeptEntry)] = []
                            defer { cache.store(contentsOf: made) }
                            for offset in chunk * Self.chunkSize..<min(batch.count, (chunk + 1) * Self.chunkSize) {
                                let source = CardSource(file: file, index: start + offset, order: order + offset, offset: batch[offset].lowerBound)
                                let key = Int(truncatingIfNeeded: StableHash.of(bytes, batch[offset], seed: fileKey))
                                if let cached = cache.value(for: key), cached.holds(at: restTime) {
                                    decoded.set(offset, .success(Self.relocate(cached, to: source)))
                                    reused.add(1)
                                    continue
                                }
                                decoded.set(offset, Result { () throws(JSONSyntaxError) in
                                    let (entry, diagnostics, readsTime) = decoder.decodeNotingTime(try JSONParser.parseElement(bytes, batch[offset]), source: source, restTime: restTime)
                                    made.append((key, KeptEntry(entry, diagnostics, readsTime: readsTime, time: restTime)))
                                    return (entry, diagnostics)
                                })
                            }
                        }
                        body(try decoded.values.map { result throws(JSONSyntaxError) in try result.get() })
                    }
                    return
                }
                let (document, starts, documentStart) = try JSONParser.parseRecordingEntries(bytes)
                var envelope = Diagnostics()
                let values = Self.entries(of: document, file: file, into: &envelope)
                let sync = values == nil ? nil : Self.sync(of: document, file: file, into: &envelope)
                // A message about the envelope points at its key, or at the value when it names
                // none, as one about a card's field does (`Diagnostics.locateCards`).
                for var diagnostic in envelope.all {
                    diagnostic.cardOffset = documentStart
                    diagnostics.append(diagnostic)
                }
                guard let values else { return }
                expect(values.count, sync)
                // Where each entry begins: in the list the entries came from, or the document.
                let places: [Int]
                if case .object = document, let key = Self.envelopeKeys.first(where: { document[$0] != nil }) {
                    places = starts[key] ?? []
                } else if case .array = document {
                    places = starts[""] ?? []
                } else {
                    places = [documentStart]
                }
                for start in stride(from: 0, to: values.count, by: Self.batchSize) {
                    let batch = Array(values[start..<min(values.count, start + Self.batchSize)])
                    body(try decodeInParallel(
                        batch.count, { offset in batch[offset] }, startIndex: start, offset: { start + $0 < places.count ? places[start + $0] : nil },
                        keyStyle: sync == nil ? .long : .short))
                }
            } catch {
                diagnostics.append(Diagnostic(.error, file: file, line: error.line, column: error.column, message: error.message))
            }
        }
        return data
    }

    /// A card decoded in an earlier build, at its place in this one.
    static func relocate(_ cached: KeptEntry, to source: CardSource) -> (DecodedEntry, [Diagnostic]) {
        var (entry, diagnostics) = (cached.entry, cached.diagnostics)
        if case .card(var card) = entry, card.source != source {  // setting a field gives the card new storage
            // What the decoder read of the card's place stays: where it is in the file is new.
            var moved = source
            moved.blankLinkKey = card.source.blankLinkKey
            card.source = moved
            entry = .card(card)
        } else if case .removal(let id, _) = entry {
            entry = .removal(id: id, source: source)
        }
        for index in diagnostics.indices where diagnostics[index].cardIndex != nil {
            diagnostics[index].cardIndex = source.index
            diagnostics[index].cardOffset = source.offset
        }
        return (entry, diagnostics)
    }


    /// Envelopes seen in the wild: a bare array, `{"feed": [...]}` (News Feed),
    /// `{"cards": [...], ...}` (Content Cards sync), `{"mFeedCards": [...]}` (Unity), or one card.
    static func entries(of json: JSONValue, file: String, into diagnostics: inout Diagnostics) -> [JSONValue]? {
        switch json {
        case .array(let cards):
            return cards
        case .object(let pairs):
            for key in envelopeKeys {
                guard let value = json[key] else { continue }
                warnAboutUnreadKeys(of: pairs.map(\.key), envelope: key, file: file, into: &diagnostics)
                if case .array(let cards) = value { return cards }
                diagnostics.append(Diagnostic(.error, file: file, field: key, message: "expected a list of cards, found \(value.noun)"))
                return nil
            }
            // A `/messages/send` or `/campaigns/trigger/send` request body: its card is
            // `messages.content_card` (one, or a list).
            if case .object(let messages)? = json["messages"], let card = messages.last(where: { $0.key == "content_card" })?.value {
                for (key, _) in pairs where key != "messages" {
                    let message = ["external_user_ids", "recipients", "user_aliases", "segment_id", "audience", "broadcast"].contains(key)
                        ? "who the request sends the card to; ignored (the site shows the card to every reader)"
                        : "not read from a request body (its card is messages.content_card); ignored"
                    diagnostics.append(Diagnostic(.warning, file: file, field: key, message: message))
                }
                for (key, _) in messages where key != "content_card" {
                    diagnostics.append(Diagnostic(.warning, file: file, field: "messages.\(key)", message: "a message of another channel than Content Cards; ignored"))
                }
                if case .array(let cards) = card { return cards }
                return [card]
            }
            // An object with no id that holds a list of cards is a misspelled envelope
            // (`{"feeds": [...]}`), not a card: read as one, every card in it would be lost.
            if json["id"] == nil, let key = pairs.first(where: { Self.holdsCards($0.value) })?.key {
                let known = envelopeKeys.map { "{\"\($0)\": [...]}" }.joined(separator: ", ")
                let meant = Self.meantEnvelope(key).map { "did you mean {\"\($0)\": [...]}? " } ?? ""
                diagnostics.append(Diagnostic(
                    .error, file: file, field: key,
                    message: "a list of cards under a key that is no envelope, so none of them is read: \(meant)(the envelopes are \(known))"))
                return nil
            }
            return [json]
        case let other:
            diagnostics.append(Diagnostic(
                .error, file: file,
                message: "expected a card, a list of cards or an envelope such as {\"cards\": [...]}, found \(other.noun)"))
            return nil
        }
    }
}

/// A file saved from Braze's Content Cards sync (`{"cards": [...], "full_sync": ...}`).
enum ContentCardsSync {
    /// `full_sync: true`: the file's cards replace those of earlier syncs.
    case full
    /// Adds, updates and removes cards of earlier syncs.
    case incremental
}

extension CardLoader {
    /// Whether a file is a Content Cards sync, and which kind; nil for every other file.
    static func sync(of document: JSONValue, file: String, into diagnostics: inout Diagnostics) -> ContentCardsSync? {
        // The envelope read is the first of `envelopeKeys` the file has: with a "feed" too, the
        // file is a News Feed file (its "cards" get a warning), and no sync.
        guard case .object = document, envelopeKeys.first(where: { document[$0] != nil }) == "cards" else { return nil }
        switch document["full_sync"] {
        case .bool(true)?, .number(1, _)?: return .full
        case nil, .null?, .bool(false)?, .number(0, _)?: return .incremental
        case let other?:
            diagnostics.append(Diagnostic(.warning, file: file, field: "full_sync", message: "expected true or false, found \(other.noun); read as an incremental sync"))
            return .incremental
        }
    }

    /// Every key of an envelope object other than its list and, for a sync, the sync's own
    /// keys, is not read: each gets a warning, a second envelope's list (a file with both
    /// `{"feed": [...]}` and `{"cards": [...]}`) first of all, whose cards would be lost.
    static func warnAboutUnreadKeys(of keys: [String], envelope: String, file: String, into diagnostics: inout Diagnostics) {
        let read: Set<String> = envelope == "cards" ? ["cards", "full_sync", "last_full_sync_at", "last_card_updated_at"] : [envelope]
        for key in keys where !read.contains(key) {
            let message = envelopeKeys.contains(key)
                ? "the file's cards are read from {\"\(envelope)\": [...]}, so those under \"\(key)\" are not (a file holds one envelope); move them to a file of their own"
                : "not a key of the {\"\(envelope)\": [...]} envelope; ignored"
            diagnostics.append(Diagnostic(.warning, file: file, field: key, message: message))
        }
    }

    /// The keys of the envelopes Braze uses: News Feed, Content Cards sync, Unity.
    static let envelopeKeys = ["feed", "cards", "mFeedCards"]

    /// The envelope key a misspelled one is a small edit away from (any case: `"Cards"`, `"feeds"`).
    static func meantEnvelope(_ key: String) -> String? {
        key == "" ? nil : Suggestion.names(for: key, among: envelopeKeys).first
    }

    /// A list with at least one object shaped like a card (it has an id or a type).
    static func holdsCards(_ value: JSONValue) -> Bool {
        guard case .array(let items) = value else { return false }
        return items.contains { item in
            guard case .object(let pairs) = item else { return false }
            return pairs.contains { ["id", "type", "tp"].contains($0.key) }
        }
    }
}

/// Joins the cards of all files, in path order.
///
/// A Content Cards sync file acts as the sync did in the app: a full sync replaces the cards of
/// earlier syncs, and an incremental one adds, updates (a card of an earlier sync is replaced
/// without a warning) and removes (`{"id": X, "r": true}` deletes card X as read so far; a later
/// file may send it again). Every other file keeps the News Feed rules: a repeated id keeps the
/// more recently updated card (on a tie, the one read last), and a removal entry deletes its card
/// wherever it was read.
///
/// A sync removes only what syncs sent, in any order of files: a card of another file that a
/// sync's card of the same id took the place of (or that lost to one) waits behind it, and shows
/// again when syncs no longer send that id (a full sync that leaves it out, or a sync's removal
/// entry), with a warning saying so.
struct CardMerger {
    private var byID: [String: Int] = [:]
    /// Ids removed by entries of files that are not syncs, deleted from all files at the end.
    private var removals = Set<String>()
    /// Positions in `result.cards` of cards deleted by a sync, dropped at the end.
    private var deleted = Set<Int>()
    /// Positions of cards read from sync files (which a later full sync replaces).
    private var fromSyncs = Set<Int>()
    /// By id: the newest card of a file that is not a sync, where a sync's card of that id is
    /// shown instead, and the position it shows again at once no sync sends the id.
    private var behindSyncs: [String: (card: Card, position: Int, sync: CardSource)] = [:]
    /// The kind of the file being merged: nil for a file that is not a sync.
    private var sync: ContentCardsSync?
    /// The id whose history is kept (see `CardEvent`), and its history.
    var following: String?
    private(set) var history: [CardEvent] = []
    /// The removal entry of a file that is not a sync for the followed id, applied at the end.
    private var followedRemoval: CardSource?

    /// Makes room for `count` more cards: growing a dictionary of 100,000 ids step by step
    /// rehashes it some seventeen times. Room is at least doubled, as appending would: asked for
    /// exactly, a site of thousands of small files would copy its cards once a file.
    mutating func reserve(_ count: Int, in result: inout LoadedCards) {
        let needed = result.cards.count + count
        guard needed > result.cards.capacity else { return }
        let room = max(needed, 2 * result.cards.capacity)
        byID.reserveCapacity(room)
        result.cards.reserveCapacity(room)
    }

    /// Called before the entries of each file.
    mutating func beginFile(_ sync: ContentCardsSync?, file: String, into result: inout LoadedCards) {
        self.sync = sync
        guard sync == .full else { return }
        if let following, let position = byID[following], fromSyncs.contains(position) {
            history.append(.clearedByFullSync(result.cards[position].source, sync: file))
        }
        for position in fromSyncs.sorted() { delete(position, as: .replacedBySync, from: &result) }
        fromSyncs.removeAll()
    }

    /// Keeps why an entry of the followed id was skipped: the last of its warnings, which the
    /// decoder gives as it skips it. (`add` keeps what it decides about the id's other entries.)
    mutating func follow(_ entry: DecodedEntry, _ diagnostics: [Diagnostic]) {
        guard case .skipped(let reason, let id?) = entry, id == following, let why = diagnostics.last else { return }
        history.append(.skipped(reason, why))
    }

    private mutating func delete(_ position: Int, as reason: SkipReason, from result: inout LoadedCards) {
        let id = result.cards[position].id
        if byID[id] == position { byID[id] = nil }
        deleted.insert(position)
        fromSyncs.remove(position)
        result.skipped[reason, default: 0] += 1
        result.skippedIDs.add(id, reason)
    }

    mutating func add(_ entry: DecodedEntry, into result: inout LoadedCards) {
        switch entry {
        case .skipped(let reason, _):
            result.skipped[reason, default: 0] += 1
        case .removal(let id, let source):
            let followed = id == following
            guard sync != nil else {
                removals.insert(id)
                if followed { followedRemoval = source }
                return
            }
            guard let position = byID[id] else {
                if followed { history.append(.removed(nil, by: source)) }
                return
            }
            guard fromSyncs.contains(position) else {
                // A sync removes what syncs sent: a News Feed file's card of the same id stays.
                let kept = result.cards[position]
                var diagnostic = Diagnostic(
                    .warning, file: source.file, cardIndex: source.index, cardID: id, field: "r",
                    message: "removes card \(Diagnostic.quoted(id)), which no earlier sync sent; the card of that id (\(kept.source)) is not from a sync, so it stays (a sync removes only cards of syncs; add \"r\": true to that card to remove it)")
                diagnostic.cardOffset = source.offset
                result.diagnostics.append(diagnostic)
                if followed { history.append(.removalIgnored(by: source, why: diagnostic.message)) }
                return
            }
            if followed { history.append(.removed(result.cards[position].source, by: source)) }
            delete(position, as: .removed, from: &result)
        case .card(let card):
            if let following, card.id == following { history.append(.read(card.source)) }
            guard let previous = byID[card.id] else {
                byID[card.id] = result.cards.count
                if sync != nil { fromSyncs.insert(result.cards.count) }
                result.cards.append(card)
                return
            }
            let kept = result.cards[previous]
            if sync != nil, fromSyncs.contains(previous), kept.source.file != card.source.file {
                // A later sync's card is the card as it is now.
                if card.id == following { history.append(.replacedBySync(earlier: kept.source, later: card.source)) }
                result.cards[previous] = card
                result.skipped[.replacedBySync, default: 0] += 1
                result.skippedIDs.add(card.id, .replacedBySync)
                return
            }
            let newer = card.sortTime >= kept.sortTime
            let message =
                card.sortTime == kept.sortTime ? "same id and update time as \(kept.source); this one, read later, replaces it"
                : newer ? "same id as \(kept.source); this one is updated more recently and replaces it"
                : "same id as \(kept.source), which is updated more recently; this one is ignored"
            result.diagnostics.append(Diagnostic(.warning, card: card, field: "id", message: message))
            if card.id == following { history.append(.duplicate(kept: newer ? card.source : kept.source, dropped: newer ? kept.source : card.source, why: message)) }
            if sync != nil, !fromSyncs.contains(previous), newer {
                keepBehindSyncs(kept, at: previous, behind: card.source)
            } else if sync == nil, fromSyncs.contains(previous) {
                if newer { behindSyncs[card.id] = nil } else { keepBehindSyncs(card, at: previous, behind: kept.source) }
            }
            if newer {
                result.cards[previous] = card
                if sync != nil { fromSyncs.insert(previous) } else { fromSyncs.remove(previous) }
            }
            result.skipped[.duplicate, default: 0] += 1
            result.skippedIDs.add(card.id, .duplicate)
        }
    }

    /// Keeps `card`, of a file that is not a sync, behind the sync's card of its id at `position`
    /// (the newer of two such cards, as between any two News Feed cards).
    private mutating func keepBehindSyncs(_ card: Card, at position: Int, behind sync: CardSource) {
        if let waiting = behindSyncs[card.id], waiting.card.sortTime > card.sortTime { return }
        behindSyncs[card.id] = (card, position, sync)
    }

    /// Shows again each card that waited behind a sync's card once no sync's card of its id is
    /// left, at the place it held, with a warning: it was hidden by the sync, not removed.
    private mutating func showAgainWhatSyncsNoLongerSend(_ result: inout LoadedCards) {
        for (id, waiting) in behindSyncs.sorted(by: { $0.value.position < $1.value.position }) where byID[id] == nil && deleted.contains(waiting.position) {
            let card = waiting.card
            result.cards[waiting.position] = card
            deleted.remove(waiting.position)
            byID[id] = waiting.position
            // It was counted as a duplicate when the sync's card took its place.
            result.skipped[.duplicate, default: 0] -= 1
            if result.skipped[.duplicate] == 0 { result.skipped[.duplicate] = nil }
            let diagnostic = Diagnostic(
                .warning, card: card, field: "id",
                message: "shows again: the Content Cards sync \(waiting.sync.file) sent a card of this id in its place, and later syncs no longer send it (a full sync left it out, or a sync removed it); a sync removes only what syncs sent")
            result.diagnostics.append(diagnostic)
            if id == following { history.append(.shownAgain(card.source, why: diagnostic.message)) }
        }
    }

    mutating func applyRemovals(to result: inout LoadedCards) {
        showAgainWhatSyncsNoLongerSend(&result)
        if !deleted.isEmpty {
            result.cards = result.cards.enumerated().compactMap { deleted.contains($0.offset) ? nil : $0.element }
        }
        guard !removals.isEmpty else { return }
        if let following, let removal = followedRemoval {
            history.append(.removed(result.cards.first { $0.id == following }?.source, by: removal))
        }
        let before = result.cards.count
        for card in result.cards where removals.contains(card.id) { result.skippedIDs.add(card.id, .removed) }
        result.cards.removeAll { removals.contains($0.id) }
        result.skipped[.removed, default: 0] += before - result.cards.count
    }
}

/// A count both cores add to.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    func add(_ amount: Int) { count.add(amount, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}
