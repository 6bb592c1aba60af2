import CardFeedMustache
import Testing
@testable import CardFeedLoad
@testable import CardFeedModel
@testable import CardFeedRender

/// The card view answers names through a hand-written switch (`CardView.value(of:for:)`), for
/// speed, while its declaration (`CardView.names`) is the list the linter and docs/templates.md
/// read: the two must give the same value for every declared name, on cards that fill each name
/// and on cards that leave them empty.
@Suite struct CardViewLookupTests {
    /// Cards that between them take every branch of the card view's values.
    static func cards() -> [Card] {
        let full = TemplateLinterTests.card()
        var bare = Card(id: "bare", type: .shortNews, source: CardSource(file: "cards.json", index: 1, order: 1))
        bare.viewed = true
        var other = TemplateLinterTests.card()
        other.image = .asset("banner.png")
        other.descriptionFormat = .text
        other.language = "ar"
        other.useWebView = true
        other.price = 0
        other.extras = [Card.Extra(key: "a", value: "1"), Card.Extra(key: "b", value: "2")]
        other.categories = [.advertising, .social, .news]
        other.updated = 0
        var priced = TemplateLinterTests.card()
        priced.displayPrice = "$2 a month"
        priced.url = nil
        priced.title = "مرحبا"
        return [full, bare, other, priced]
    }

    @Test func theSwitchAnswersEveryDeclaredNameAsTheDeclarationDoes() throws {
        let settings = try TemplateLinterTests.settings()
        for card in Self.cards() {
            let view = CardView(card: card, descriptionHTML: card.description.map { "<p>\($0)</p>" }, settings: settings, permalink: "index.html#card-\(card.id)")
            for (name, kind, _) in CardView.schema.fields {
                let switched = Self.shown(CardView.value(of: view, for: MustacheName(name)), kind)
                let declared = Self.shown(CardView.names.value(of: view, for: MustacheName(name)), kind)
                #expect(switched == declared, "card \(card.id): `\(name)` is \(switched) through the switch, \(declared) as declared")
            }
        }
    }

    @Test func theSwitchKnowsNoNameTheDeclarationLacks() {
        let declared = Set(CardView.schema.names)
        for own in CardView.Own.allCases {
            #expect(declared.contains(own.rawValue), "the switch answers `\(own.rawValue)`, which `CardView.names` does not declare")
        }
        #expect(CardView.value(of: CardView(card: TemplateLinterTests.card(), descriptionHTML: nil, settings: try! TemplateLinterTests.settings(), permalink: ""), for: MustacheName("nonexistent")) == nil)
    }

    /// A value written out, through the names of its kind's schema for a view (which the views
    /// answer alike however they are found), so two lookups' values can be compared.
    static func shown(_ value: MustacheValue?, _ kind: FieldKind) -> String {
        guard let value else { return "none" }
        switch value {
        case .null: return "null"
        case .bool(let flag): return "bool \(flag)"
        case .int(let number): return "int \(number)"
        case .text(let text): return "text \(text)"
        case .deferredList(let count): return "cards \(count)"
        case .list(let items): return "[" + items.map { shown($0, kind) }.joined(separator: ", ") + "]"
        case .object(let object):
            guard let schema = kind.schema else {
                // An open view (extras, strings): its names are the site's; a few of them.
                return "\(type(of: object)) " + ["campaign", "a", "b", "pinned", "free"].map { shown(object.value(for: MustacheName($0)), .text) }.joined(separator: " ")
            }
            return "{" + schema.fields.map { "\($0.name): " + shown(object.value(for: MustacheName($0.name)), $0.kind) }.joined(separator: ", ") + "}"
        }
    }
}
