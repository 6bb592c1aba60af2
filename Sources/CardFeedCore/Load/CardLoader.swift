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
        var removals: [String: CardSource] = [:]
        var byID: [String: Int] = [:]
        for url in files {
            let file = site.display(url)
            result.files.append(file)
            guard let entries = readEntries(url, file: file, into: &result.diagnostics) else { continue }
            for (index, value) in entries.enumerated() {
                let source = CardSource(file: file, index: index, order: result.entriesRead)
                result.entriesRead += 1
                let (entry, diagnostics) = decoder.decode(value, source: source)
                diagnostics.forEach { result.diagnostics.append($0) }
                switch entry {
                case .skipped(let reason):
                    result.skipped[reason, default: 0] += 1
                case .removal(let id):
                    removals[id] = source
                case .card(let card):
                    guard let previous = byID[card.id] else {
                        byID[card.id] = result.cards.count
                        result.cards.append(card)
                        continue
                    }
                    let kept = result.cards[previous]
                    // The more recently updated card wins; on a tie, the one read last (as a sync would).
                    let newer = card.sortTime >= kept.sortTime
                    let message =
                        card.sortTime == kept.sortTime ? "same id and update time as \(kept.source); this one, read later, replaces it"
                        : newer ? "same id as \(kept.source); this one is updated more recently and replaces it"
                        : "same id as \(kept.source), which is updated more recently; this one is ignored"
                    result.diagnostics.append(Diagnostic(.warning, file: file, cardIndex: index, cardID: card.id, field: "id", message: message))
                    if newer { result.cards[previous] = card }
                    result.skipped[.duplicate, default: 0] += 1
                }
            }
        }
        if !removals.isEmpty {
            let before = result.cards.count
            result.cards.removeAll { removals[$0.id] != nil }
            result.skipped[.removed, default: 0] += before - result.cards.count
        }
        return result
    }

    /// The list of card values in a file, whatever its envelope; nil after an error.
    private func readEntries(_ url: URL, file: String, into diagnostics: inout Diagnostics) -> [Any]? {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            diagnostics.append(Diagnostic(.error, file: file, message: "cannot read the file: \(error.localizedDescription)"))
            return nil
        }
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            diagnostics.append(Diagnostic(.error, file: file, message: "the file is empty; expected a card, a list of cards or an envelope such as {\"cards\": [...]}"))
            return nil
        }
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let syntax = JSONSyntaxError(error, in: data)
            diagnostics.append(Diagnostic(.error, file: file, line: syntax.line, column: syntax.column, message: syntax.message))
            return nil
        }
        return Self.entries(of: json, file: file, into: &diagnostics)
    }

    /// Envelopes seen in the wild: a bare array, `{"feed": [...]}` (News Feed),
    /// `{"cards": [...], ...}` (Content Cards sync), `{"mFeedCards": [...]}` (Unity), or one card.
    static func entries(of json: Any, file: String, into diagnostics: inout Diagnostics) -> [Any]? {
        switch JSONKind(json) {
        case .array(let cards):
            return cards
        case .object(let object):
            for key in ["feed", "cards", "mFeedCards"] {
                guard let value = object[key] else { continue }
                if case .array(let cards) = JSONKind(value) { return cards }
                diagnostics.append(Diagnostic(.error, file: file, field: key, message: "expected a list of cards, found \(JSONKind(value).noun)"))
                return nil
            }
            return [object]
        case let other:
            diagnostics.append(Diagnostic(
                .error, file: file,
                message: "expected a card, a list of cards or an envelope such as {\"cards\": [...]}, found \(other.noun)"))
            return nil
        }
    }
}
