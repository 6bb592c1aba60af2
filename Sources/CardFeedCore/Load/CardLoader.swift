import Foundation

/// The cards of a site, read from `SITE/cards.json` and every `SITE/cards/**/*.json`.
public struct LoadedCards: Sendable {
    /// Every card that survived reading, in file order, duplicates resolved, removals applied.
    public var cards: [Card] = []
    /// The files read, as shown in messages.
    public var files: [String] = []
    /// Entries read from all files, cards and removals alike.
    public var entriesRead = 0
    public var skipped: [SkipReason: Int] = [:]
    public var diagnostics = Diagnostics()
}

/// Step 1 of a build: files -> [Card] + diagnostics.
public struct CardLoader: Sendable {
    public let site: SiteFolder
    /// Schemes card links may use: the web ones and the site's app schemes.
    public var linkSchemes: Set<String>

    /// With `serve`: cards decoded by the previous build, reused when their bytes did not change.
    public var incremental: IncrementalState?

    /// Told, after each batch, how many entries have been read and what share of the card
    /// files' bytes that is.
    public var progress: (@Sendable (_ entries: Int, _ fraction: Double) -> Void)?

    public init(site: SiteFolder, linkSchemes: Set<String> = URLCheck.linkSchemes) {
        self.site = site
        self.linkSchemes = linkSchemes
    }

    /// The decoder this loader uses, also for the values that rules set.
    func decoder() -> CardDecoder {
        let assets = Set(site.assetFiles())
        return CardDecoder(assetExists: { assets.contains($0) }, linkSchemes: linkSchemes)
    }

    public func load() -> LoadedCards {
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
        var settings = Hasher()
        settings.combine(linkSchemes.sorted())
        settings.combine(site.assetFiles())
        let decoderFingerprint = settings.finalize()
        // Batches are merged on a thread of their own while the next is decoded on both cores
        // (merging a million cards takes about 1.5 s).
        let merging = Merging(result)
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
            readEntries(
                url, file: file, decoder: decoder, decoderFingerprint: decoderFingerprint, firstOrder: { entriesHandedOver },
                into: &fileProblems,
                expect: { count in
                    fileEntries = count
                    merging.queue.sync { merging.merger.reserve(count, in: &merging.result) }
                }
            ) { decoded in
                entriesHandedOver += decoded.count
                let merge: @Sendable () -> Void = {
                    merging.result.entriesRead += decoded.count
                    for (entry, diagnostics) in decoded {
                        diagnostics.forEach { merging.result.diagnostics.append($0) }
                        merging.merger.add(entry, into: &merging.result)
                    }
                }
                // A small file's cards are merged on this thread: handing them over took longer
                // than decoding them (three quarters of loading a folder of one-card files).
                if fileEntries > Self.chunkSize { merging.queue.async(execute: merge) } else { merging.queue.sync(execute: merge) }
                fileEntriesRead += decoded.count
                let shareOfFile = Double(fileEntriesRead) / Double(max(fileEntries, fileEntriesRead))
                progress?(entriesHandedOver, (Double(bytesBefore) + Double(size) * shareOfFile) / allBytes)
            }
            merging.queue.sync {
                merging.result.files.append(file)
                merging.result.diagnostics.append(contentsOf: fileProblems)
            }
            bytesBefore += size
        }
        return merging.queue.sync {
            merging.merger.applyRemovals(to: &merging.result)
            return merging.result
        }
    }

    /// What has been merged so far; touched only on `queue`.
    private final class Merging: @unchecked Sendable {
        let queue = DispatchQueue(label: "cardfeed.merge")
        var result: LoadedCards
        var merger = CardMerger()
        init(_ result: LoadedCards) { self.result = result }
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
    /// order, a batch at a time.
    private func readEntries(
        _ url: URL, file: String, decoder: CardDecoder, decoderFingerprint: Int, firstOrder: () -> Int, into diagnostics: inout Diagnostics,
        expect: (Int) -> Void = { _ in }, _ body: ([(DecodedEntry, [Diagnostic])]) -> Void
    ) {
        let data: Data
        do {
            data = try InputFile.read(url, mapped: true)
        } catch {
            diagnostics.append(Diagnostic(.error, file: file, message: error.description))
            return
        }
        if !data.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) {  // stops at the first byte of content
            diagnostics.append(Diagnostic(.error, file: file, message: "the file is empty; expected a card, a list of cards or an envelope such as {\"cards\": [...]}"))
            return
        }
        func decodeInParallel(_ count: Int, _ value: @Sendable (Int) throws(JSONSyntaxError) -> JSONValue, startIndex: Int, offset place: @Sendable (Int) -> Int?) throws(JSONSyntaxError) -> [(DecodedEntry, [Diagnostic])] {
            let order = firstOrder()
            let decoded = ConcurrentResults<Result<(DecodedEntry, [Diagnostic]), JSONSyntaxError>>(count: count)
            DispatchQueue.concurrentPerform(iterations: (count + Self.chunkSize - 1) / Self.chunkSize) { chunk in
                for offset in chunk * Self.chunkSize..<min(count, (chunk + 1) * Self.chunkSize) {
                    let source = CardSource(file: file, index: startIndex + offset, order: order + offset, offset: place(offset))
                    decoded.set(offset, Result { () throws(JSONSyntaxError) in decoder.decode(try value(offset), source: source) })
                }
            }
            // The first syntax error in file order, so that the message is the same on every run.
            return try decoded.values.map { result throws(JSONSyntaxError) in try result.get() }
        }
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            do throws(JSONSyntaxError) {
                if let elements = JSONParser.topLevelArrayElements(bytes) {
                    expect(elements.count)
                    let shared = ReadOnlyBytes(bytes: bytes)
                    // A bare list of cards, the usual shape of a large file: parsed and decoded
                    // on both cores, a batch at a time.
                    let incremental = self.incremental
                    for start in stride(from: 0, to: elements.count, by: Self.batchSize) {
                        let batch = Array(elements[start..<min(elements.count, start + Self.batchSize)])
                        guard let incremental else {
                            body(try decodeInParallel(batch.count, { offset throws(JSONSyntaxError) in try JSONParser.parseElement(shared.bytes, batch[offset]) }, startIndex: start, offset: { batch[$0].lowerBound }))
                            continue
                        }
                        // serve: a card whose bytes did not change is not parsed or decoded again.
                        let order = firstOrder()
                        let decoded = ConcurrentResults<Result<(DecodedEntry, [Diagnostic]), JSONSyntaxError>>(count: batch.count)
                        DispatchQueue.concurrentPerform(iterations: (batch.count + Self.chunkSize - 1) / Self.chunkSize) { chunk in
                            for offset in chunk * Self.chunkSize..<min(batch.count, (chunk + 1) * Self.chunkSize) {
                                let source = CardSource(file: file, index: start + offset, order: order + offset, offset: batch[offset].lowerBound)
                                var hasher = Hasher()
                                hasher.combine(file)
                                hasher.combine(decoderFingerprint)
                                hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(shared.bytes)[batch[offset]]))
                                let key = hasher.finalize()
                                if let cached = incremental.cachedEntry(key) {
                                    decoded.set(offset, .success(Self.relocate(cached, to: source)))
                                    continue
                                }
                                decoded.set(offset, Result { () throws(JSONSyntaxError) in
                                    let entry = decoder.decode(try JSONParser.parseElement(shared.bytes, batch[offset]), source: source)
                                    incremental.storeEntry(key, entry)
                                    return entry
                                })
                            }
                        }
                        body(try decoded.values.map { result throws(JSONSyntaxError) in try result.get() })
                    }
                    return
                }
                let (document, starts, documentStart) = try JSONParser.parseRecordingEntries(bytes)
                guard let values = Self.entries(of: document, file: file, into: &diagnostics) else { return }
                expect(values.count)
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
                    body(try decodeInParallel(batch.count, { offset in batch[offset] }, startIndex: start, offset: { start + $0 < places.count ? places[start + $0] : nil }))
                }
            } catch {
                diagnostics.append(Diagnostic(.error, file: file, line: error.line, column: error.column, message: error.message))
            }
        }
    }

    /// A card decoded in an earlier build, at its place in this one.
    static func relocate(_ cached: (DecodedEntry, [Diagnostic]), to source: CardSource) -> (DecodedEntry, [Diagnostic]) {
        var (entry, diagnostics) = cached
        if case .card(var card) = entry, card.source != source {  // setting a field gives the card new storage
            card.source = source
            entry = .card(card)
        }
        for index in diagnostics.indices where diagnostics[index].cardIndex != nil {
            diagnostics[index].cardIndex = source.index
            diagnostics[index].cardOffset = source.offset
        }
        return (entry, diagnostics)
    }

    static let envelopeKeys = ["feed", "cards", "mFeedCards"]

    /// Envelopes seen in the wild: a bare array, `{"feed": [...]}` (News Feed),
    /// `{"cards": [...], ...}` (Content Cards sync), `{"mFeedCards": [...]}` (Unity), or one card.
    static func entries(of json: JSONValue, file: String, into diagnostics: inout Diagnostics) -> [JSONValue]? {
        switch json {
        case .array(let cards):
            return cards
        case .object:
            for key in envelopeKeys {
                guard let value = json[key] else { continue }
                if case .array(let cards) = value { return cards }
                diagnostics.append(Diagnostic(.error, file: file, field: key, message: "expected a list of cards, found \(value.noun)"))
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

/// Joins the cards of all files: a repeated id keeps the more recently updated card (on a tie,
/// the one read last, as a sync would), and removal entries delete their card wherever it was read.
struct CardMerger {
    private var byID: [String: Int] = [:]
    private var removals = Set<String>()

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

    mutating func add(_ entry: DecodedEntry, into result: inout LoadedCards) {
        switch entry {
        case .skipped(let reason):
            result.skipped[reason, default: 0] += 1
        case .removal(let id):
            removals.insert(id)
        case .card(let card):
            guard let previous = byID[card.id] else {
                byID[card.id] = result.cards.count
                result.cards.append(card)
                return
            }
            let kept = result.cards[previous]
            let newer = card.sortTime >= kept.sortTime
            let message =
                card.sortTime == kept.sortTime ? "same id and update time as \(kept.source); this one, read later, replaces it"
                : newer ? "same id as \(kept.source); this one is updated more recently and replaces it"
                : "same id as \(kept.source), which is updated more recently; this one is ignored"
            var diagnostic = Diagnostic(.warning, file: card.source.file, cardIndex: card.source.index, cardID: card.id, field: "id", message: message)
            diagnostic.cardOffset = card.source.offset
            result.diagnostics.append(diagnostic)
            if newer { result.cards[previous] = card }
            result.skipped[.duplicate, default: 0] += 1
        }
    }

    func applyRemovals(to result: inout LoadedCards) {
        guard !removals.isEmpty else { return }
        let before = result.cards.count
        result.cards.removeAll { removals.contains($0.id) }
        result.skipped[.removed, default: 0] += before - result.cards.count
    }
}

/// The bytes of a file, shared by the threads that parse it; nothing writes to them.
private struct ReadOnlyBytes: @unchecked Sendable {
    let bytes: UnsafeBufferPointer<UInt8>
}
