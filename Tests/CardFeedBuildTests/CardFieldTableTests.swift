import Foundation
import Testing
@testable import CardFeedLoad
@testable import CardFeedModel
@testable import CardFeedSelect
@testable import CardFeedSystem
@testable import CardFeedMustache
@testable import CardFeedRender

/// Walks `CardField`'s table, as `ModelEdits` walks the model: every field a card file may hold
/// is read from both key styles, every settable one is set by a rule, every one with a template
/// name is shown by the card view, and every counted one counts toward Braze's 2 KB. A field
/// added to the table is tested here with no change, unless it is read by code of its own
/// (`.ownCode`: then `ownSample` must give it a sample, or the test says so).
struct CardFieldTableTests {
    /// A value of the field as a card file writes it, and what the card then holds.
    struct Sample {
        var json: Any
        var holds: (Card.Fields) -> Bool
    }

    static func sample(_ field: CardField) -> Sample {
        switch field.declaration.value {
        case .text:
            let words = Self.words(field)
            return Sample(json: words) { $0[field] == .text(words) }
        case .link: return Sample(json: "https://x.test/go") { $0[field] == .text("https://x.test/go") }
        case .image: return Sample(json: "https://x.test/i.png") { $0[field] == .image(.remote("https://x.test/i.png")) }
        case .flag: return Sample(json: true) { $0[field] == .flag(true) }
        case .positiveNumber: return Sample(json: 1.5) { $0[field] == .number(1.5) }
        case .integer: return Sample(json: 42) { $0[field] == .integer(42) }
        case .time: return Sample(json: 1_700_000_000) { $0[field] == .integer(1_700_000_000) }
        case .format: return Sample(json: "text") { $0[field] == .format(.text) }
        case .ownCode: return ownSample(field)
        }
    }

    /// Text a field takes: a language tag for `language`, which takes no other.
    static func words(_ field: CardField) -> String {
        field == .language ? "pt-BR" : "Words of \(field.declaration.key)"
    }

    /// The fields read by `CardDecoder`'s own code.
    static func ownSample(_ field: CardField) -> Sample {
        switch field {
        case .id: Sample(json: "sample-card") { $0.id == "sample-card" }
        case .type: Sample(json: "cross_promotion_small") { $0.type == .crossPromotionSmall }
        case .created: Sample(json: 1_600_000_000) { $0.created == 1_600_000_000 }
        case .updated: Sample(json: 1_650_000_000) { $0.updated == 1_650_000_000 }
        case .categories: Sample(json: ["social"]) { $0.categories == [.social] }
        case .extras: Sample(json: ["campaign": "autumn"]) { $0.extras == [Card.Extra(key: "campaign", value: "autumn")] }
        case .removed: Sample(json: true) { _ in true }  // a removal, checked in `everyWrittenFieldIsReadFromBothKeyStyles`
        case .rating: Sample(json: 4.5) { $0.rating == 4.5 }
        case .reviews: Sample(json: 120) { $0.reviews == 120 }
        case .price: Sample(json: 1.99) { $0.price == 1.99 }
        default: Sample(json: NSNull()) { _ in Issue.record("\(field) is not read by code of its own: give it a kind"); return false }
        }
    }

    /// A cross promotion card (the type every field of the table applies to), in one key style,
    /// with `field` set to `value`.
    static func card(_ field: CardField, _ value: Any, short: Bool) -> [String: Any] {
        func key(_ field: CardField) -> String { short ? field.declaration.shortKey ?? field.declaration.key : field.declaration.key }
        var object: [String: Any] = [key(.id): "sample-card", key(.type): "cross_promotion_small", key(.created): 1_600_000_000]
        object[key(field)] = value
        return object
    }

    static func decode(_ object: [String: Any]) throws -> (DecodedEntry, [Diagnostic]) {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        let value = try JSONParser.parse(data)
        return CardDecoder(assets: .listed([])).decode(value, source: CardSource(file: "cards.json", index: 0, order: 0))
    }

    @Test(arguments: CardField.written)
    func everyWrittenFieldIsReadFromBothKeyStyles(_ field: CardField) throws {
        let sample = Self.sample(field)
        for short in [false, true] where !short || field.declaration.shortKey != nil {
            let (entry, diagnostics) = try Self.decode(Self.card(field, sample.json, short: short))
            #expect(diagnostics.allSatisfy { $0.severity != .error }, "\(diagnostics)")
            switch entry {
            case .card(let card): #expect(sample.holds(card.fields), "\(field) read from \(short ? "short" : "long") keys")
            case .removal(let id, _): #expect(field == .removed && id == "sample-card")
            case .skipped(let reason, _): Issue.record("\(field): skipped, \(reason)")
            }
        }
    }

    /// The value a rule's `set:` gives each settable field, as cardfeed.yml writes it.
    static func yaml(_ field: CardField) -> String {
        switch field.declaration.value {
        case .flag: "true"
        case .positiveNumber: "1.5"
        case .integer: "42"
        case .time: "1700000000"
        case .format: "text"
        case .link: "https://x.test/go"
        case .image: "https://x.test/i.png"
        case .text, .ownCode: "\"\(words(field))\""
        }
    }

    @Test(arguments: CardField.settable.values.sorted { $0.rawValue < $1.rawValue })
    func everySettableFieldIsSetByARule(_ field: CardField) throws {
        let site = try TempSite(["cardfeed.yml": "rules:\n  - set: {\(field.declaration.key): \(Self.yaml(field))}\n"])
        defer { site.remove() }
        var diagnostics = Diagnostics()
        let config = ConfigLoader(site: site.site).load(into: &diagnostics)
        #expect(diagnostics.all.isEmpty, "\(diagnostics.lines)")
        let card = Card(id: "c", type: .crossPromotionSmall, source: CardSource(file: "cards.json", index: 0, order: 0))
        let ruled = RuleEngine(rules: config.rules, decoder: CardDecoder(assets: .listed([]))).apply(to: [card])
        #expect(ruled.diagnostics.isEmpty, "\(ruled.diagnostics)")
        let changed = try #require(ruled.cards.first)
        #expect(Self.sample(field).holds(changed.fields), "\(field) set by a rule")
    }

    @Test func noFieldReadByItsOwnCodeIsSettable() {
        for field in CardField.settable.values {
            if case .ownCode = field.declaration.value { Issue.record("\(field) is settable but has no kind to set") }
        }
    }

    @Test(arguments: CardField.allCases.filter { $0.declaration.template != nil })
    func everyFieldWithATemplateNameIsShownByTheCardView(_ field: CardField) throws {
        let name = try #require(field.declaration.template)
        #expect(CardView.schema.names.contains(name), "\(field): no `\(name)` in the card view")
        let (entry, _) = try Self.decode(Self.card(field, Self.sample(field).json, short: false))
        guard case .card(let card) = entry else {
            Issue.record("\(field): no card")
            return
        }
        let view = TemplateObject(CardView(card: card, descriptionHTML: nil, settings: try RenderSettings.forTests(), permalink: "index.html#card-c"))
        let shown: String? =
            switch view.value(for: MustacheName(name)) {
            case .text(let text): text
            case .bool(let flag): String(flag)
            default: nil
            }
        let expected = Self.sample(field).json
        #expect(shown == (expected as? String ?? "\(expected)"), "\(field) shown as `\(name)`")
    }

    @Test(arguments: CardField.counted)
    func everyCountedFieldCountsTowardBrazesLimit(_ field: CardField) throws {
        let long = String(repeating: "a", count: CardDecoder.contentLimit + 1)
        let value: Any =
            switch field.declaration.value {
            case .link, .image: "https://x.test/" + long
            case .ownCode where field == .extras: ["k": long]
            default: long
            }
        let (_, diagnostics) = try Self.decode(Self.card(field, value, short: false))
        #expect(diagnostics.contains { $0.message.contains("over Braze's 2 KB limit") }, "\(field) over \(CardDecoder.contentLimit) bytes")
    }

    /// A value of the kind `Card.Fields[field]` keeps for the field's declared kind, unlike
    /// the one a new card holds; nil for fields read by code of their own.
    static func content(_ field: CardField) -> FieldContent? {
        switch field.declaration.value {
        case .text, .link: .text("Words of \(field.declaration.key)")
        case .image: .image(.asset("\(field.declaration.key).png"))
        case .flag: .flag(true)
        case .positiveNumber: .number(1.5)
        case .integer, .time: .integer(42)
        case .format: .format(.text)
        case .ownCode: nil
        }
    }

    /// `Card.Fields[field]` keeps each field in a stored property of its own, of the kind its
    /// declaration gives, and reads back what it keeps: a field whose switch case names another
    /// field's property, or a kind other than the table's, fails here.
    @Test func everyFieldIsKeptInAPropertyOfItsOwn() {
        let blank = Card.Fields(id: "c", type: .crossPromotionSmall, source: CardSource(file: "cards.json", index: 0, order: 0))
        func properties(_ fields: Card.Fields) -> [String: String] {
            Dictionary(uniqueKeysWithValues: Mirror(reflecting: fields).children.map { ($0.label ?? "?", "\($0.value)") })
        }
        let before = properties(blank)
        var owners: [String: CardField] = [:]
        for field in CardField.allCases {
            guard let content = Self.content(field) else {
                #expect(blank[field] == nil, "\(field) is read by code of its own, yet kept by `Card.Fields[field]`")
                continue
            }
            var fields = blank
            fields[field] = content
            #expect(fields[field] == content, "\(field) reads back what was set")
            let changed = properties(fields).filter { before[$0.key] != $0.value }.map(\.key)
            #expect(changed.count == 1, "\(field) changes \(changed)")
            for property in changed {
                if let other = owners.updateValue(field, forKey: property) { Issue.record("\(field) and \(other) are both kept in `\(property)`") }
            }
        }
    }

    @Test func keysAreUniqueAcrossBothStyles() {
        let keys = CardField.written.flatMap { [$0.declaration.key] + ($0.declaration.shortKey.map { [$0] } ?? []) }
        #expect(Set(keys).count == keys.count)
    }
}
