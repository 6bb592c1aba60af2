import Foundation
import CardFeedSystem

/// A problem found in the user's input, precise enough to find and fix it: the file, the card
/// (index and id) and the field, or the line and column of a template or JSON file.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Comparable {
        case warning, error
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
    }

    public var severity: Severity
    public var file: String
    /// Line and column in `file`, from 1, when the problem is at a place in a text file.
    public var line: Int?
    public var column: Int?
    /// The card's index in its file (from 0; messages count from 1), and its id when it has one.
    public var cardIndex: Int?
    public var cardID: String?
    public var field: String?
    public var message: String
    /// For a warning that many cards can get in words that differ by card (each card's date),
    /// the words for all of them, which a terminal shows once for a file (`Diagnostics.summarisedLines`).
    /// Cards whose messages are the same need none.
    public var summary: String?
    /// Where the card begins in `file`, in bytes, until `Diagnostics.locateCards` makes it a
    /// line and column.
    package var cardOffset: Int?
    /// For the note a card reader leaves about keys it set aside (a field given in both key
    /// styles), those keys: the loader says so once a file, naming them and the cards
    /// (`CardLoader`), instead of once a card.
    package var keysSetAside: [String]?

    public init(
        _ severity: Severity, file: String, line: Int? = nil, column: Int? = nil,
        cardIndex: Int? = nil, cardID: String? = nil, field: String? = nil, message: String
    ) {
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
        self.cardIndex = cardIndex
        self.cardID = cardID
        self.field = field
        self.message = message
    }

    /// A message about `card`'s `field`, at the card in its file (its line and column once
    /// `Diagnostics.locateCards` has read where it begins); `summary` the words for every card
    /// that gets it, where `message` differs card by card.
    package init(_ severity: Severity, card: Card, field: String, message: String, summary: String? = nil) {
        self.init(severity, file: card.source.file, cardIndex: card.source.index, cardID: card.id, field: field, message: message)
        self.summary = summary
        self.cardOffset = card.source.offset
    }

    /// `site/cards/a.json:9:3: card 2 (id "x"): field "image": message` (the card's place, and
    /// its number in the file counted from 1), or `file:3:7: message`.
    public var description: String { described(cards: nil, message: message) }

    /// The description, with `cards` (`3 cards (card 1 (id "a"), …)`) in place of this card and
    /// `message` in place of its own.
    func described(cards: String?, message: String) -> String {
        var text = Self.escapingControls(file)
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        if let cards {
            text += ": " + cards
        } else if let cardIndex {
            text += ": " + Self.card(cardIndex, cardID)
        }
        if let field { text += ": field \(Self.quoted(field))" }
        return text + ": " + Self.escapingControls(message)
    }

    /// `card 3 (id "x")`: a card by its number in its file, counted from 1, and its id.
    package static func card(_ index: Int, _ id: String?) -> String {
        "card \(index + 1)" + (id.map { " (id \(quoted($0)))" } ?? "")
    }

    /// Whether a scalar is one a terminal or a log acts on rather than shows: C0 (ESC, BEL, CR,
    /// LF), DEL and C1 (U+0080-U+009F, which some terminals read as ESC sequences), the line and
    /// paragraph separators (U+2028, U+2029, line breaks to some viewers) and the bidirectional
    /// embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069, which reorder what
    /// follows them on the line: "Trojan Source").
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `text` with every control character written `\u{1b}`, so that a file name, card id or
    /// message printed to a terminal or a CI log shows what it holds instead of moving the
    /// cursor, changing the title or starting a line of its own.
    public static func escapingControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                shown += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// ` (did you mean "build"?)` for a name close to one or two of `candidates`, else ""
    /// (`Suggestion`, the one rule for every name).
    public static func suggestion(for name: String, among candidates: Set<String>) -> String {
        Suggestion.phrase(for: name, among: candidates)
    }

    /// Quotes untrusted text for a terminal: control characters escaped, long values cut.
    public static func quoted(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars.prefix(80) {
            switch scalar {
            case "\"", "\\": shown += "\\\(scalar)"
            case _ where isControl(scalar): shown += "\\u{\(String(scalar.value, radix: 16))}"
            default: shown.unicodeScalars.append(scalar)
            }
        }
        if text.unicodeScalars.count > 80 { shown += "…" }
        return "\"\(shown)\""
    }
}

/// Collects diagnostics in the order they were found.
public struct Diagnostics: Sendable {
    public private(set) var all: [Diagnostic] = []

    public init() {}

    package init(_ all: [Diagnostic]) { self.all = all }

    public mutating func append(_ diagnostic: Diagnostic) { all.append(diagnostic) }
    public mutating func append(contentsOf other: Diagnostics) { all += other.all }

    public var errors: [Diagnostic] { all.filter { $0.severity == .error } }
    public var warnings: [Diagnostic] { all.filter { $0.severity == .warning } }
    public var hasErrors: Bool { all.contains { $0.severity == .error } }

    /// Gives each message about a card a line and column in its file: those of the key of the
    /// field it names (`"image"`, `"extras.template"`: the key `template` in the card's
    /// `extras`), else where the card begins. Each file concerned is read once (or taken from
    /// `files`, its bytes as the load read them, by its name in messages), and only the cards
    /// messages are about are parsed again, to find their keys.
    public mutating func locateCards(in files: [String: Data] = [:]) {
        var wanted: [String: [Int]] = [:]
        for index in all.indices where all[index].line == nil && all[index].cardOffset != nil {
            wanted[all[index].file, default: []].append(index)
        }
        guard !wanted.isEmpty else { return }
        for (file, indices) in wanted {
            guard let data = files[file] ?? (try? InputFile.read(URL(fileURLWithPath: file), mapped: true)) else { continue }
            data.withByteView { bytes in
                // Each message's place: its card, or its field's key there, on both cores (at
                // 100,000 cards, a warning may name a field of a fifth of them).
                let messages = indices.map { (card: all[$0].cardOffset!, field: all[$0].field) }
                let found = ConcurrentResults<Int>(count: messages.count)
                Parallel.perform(count: messages.count, chunk: 512) { range in
                    // A card's keys are read once for the messages about it that come one after another.
                    var last: (card: Int, keys: [String: (key: Int, value: Int)])?
                    for position in range {
                        let (card, field) = messages[position]
                        guard let field else { found.set(position, card); continue }
                        if last?.card != card { last = (card, JSONParser.keys(ofObjectAt: card, in: bytes) ?? [:]) }
                        found.set(position, Self.keyOffset(of: field, in: last!.keys, bytes) ?? card)
                    }
                }
                let places = found.values
                let positions = JSONParser.positions(of: places, in: bytes)
                for (index, place) in zip(indices, places) {
                    guard let position = positions[place] else { continue }
                    all[index].line = position.line
                    all[index].column = position.column
                }
            }
        }
    }

    /// Where the key of `field` is in a card whose keys are `keys`: the field's key as named,
    /// else its other key style's (a message names `created` where the card has `ca`); a
    /// `parent.child` field (`extras.template`) at the key `child` inside `parent`'s object.
    private static func keyOffset(of field: String, in keys: [String: (key: Int, value: Int)], _ bytes: ByteView) -> Int? {
        let dot = field.firstIndex(of: ".")
        let name = String(field[..<(dot ?? field.endIndex)])
        let declaration = CardField.written(key: name)?.declaration
        guard let place = keys[name] ?? declaration.flatMap({ keys[$0.key] ?? $0.shortKey.flatMap { keys[$0] } }) else { return nil }
        guard let dot else { return place.key }
        let child = String(field[field.index(after: dot)...])
        return JSONParser.keys(ofObjectAt: place.value, in: bytes)?[child]?.key ?? place.key
    }

    /// The lines a person reads for `diagnostics` (`severity: text`), in order: each one's
    /// description, but those of several cards of one file that say the same thing (the same
    /// field and message, or the same `summary`) as one line, at the first one's place, with
    /// how many cards and the first three:
    /// `site/cards.json:3:5: 120 cards (card 1 (id "a"), card 2 (id "b"), card 4 (id "c"), …): field "created": …`.
    /// A tool reads each card's own instead (`--diagnostics json`, GitHub's annotations).
    public static func summarisedLines(_ diagnostics: [Diagnostic]) -> [(severity: Diagnostic.Severity, text: String)] {
        struct Repeated: Hashable {
            var severity: Diagnostic.Severity, file: String, field: String?, words: String
        }
        func repeated(_ diagnostic: Diagnostic) -> Repeated? {
            guard diagnostic.cardIndex != nil else { return nil }
            return Repeated(severity: diagnostic.severity, file: diagnostic.file, field: diagnostic.field, words: diagnostic.summary ?? diagnostic.message)
        }
        // Each group's diagnostics, and the first of each card among them: a card can get the
        // same warning twice (two unknown categories of one name), and the line counts cards.
        struct Group {
            var members: [Int] = []
            var cards: [Int] = []
            var cardIndexes: Set<Int> = []

            mutating func add(_ index: Int, card: Int) {
                members.append(index)
                if cardIndexes.insert(card).inserted { cards.append(index) }
            }
        }
        var groups: [Repeated: Group] = [:]
        for (index, diagnostic) in diagnostics.enumerated() {
            if let key = repeated(diagnostic) { groups[key, default: Group()].add(index, card: diagnostic.cardIndex!) }
        }
        var lines: [(severity: Diagnostic.Severity, text: String)] = []
        for (index, diagnostic) in diagnostics.enumerated() {
            guard let key = repeated(diagnostic), let group = groups[key], group.cards.count > 1 else {
                lines.append((diagnostic.severity, diagnostic.description))
                continue
            }
            guard group.members[0] == index else { continue }  // said with the first of them
            let named = group.cards.prefix(3).map { Diagnostic.card(diagnostics[$0].cardIndex!, diagnostics[$0].cardID) }.joined(separator: ", ")
            let cards = "\(group.cards.count) cards (\(named)\(group.cards.count > 3 ? ", …" : ""))"
            // The summary's words where the cards' own differ; theirs, more exact, where they do not.
            let alike = group.members.allSatisfy { diagnostics[$0].message == diagnostic.message }
            lines.append((diagnostic.severity, diagnostic.described(cards: cards, message: alike ? diagnostic.message : key.words)))
        }
        return lines
    }

    /// With `--strict`, every warning counts as an error.
    public func escalated(strict: Bool) -> Diagnostics {
        guard strict else { return self }
        var copy = self
        copy.all = all.map { var d = $0; d.severity = .error; return d }
        return copy
    }
}
