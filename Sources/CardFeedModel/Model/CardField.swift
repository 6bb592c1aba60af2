/// A field of a card, declared once, in `declaration`'s switch: the keys card files write it
/// with, what it holds, and who else reads it. The card reader (`CardDecoder`), Braze's size
/// check, the rules of cardfeed.yml and the card view of the templates all work from this
/// table, so a field added here (and kept by `Card.Fields[field]`, whose switches the compiler
/// then asks for it) is read in both key styles, counted, settable and shown as its
/// declaration says, with no other list to extend.
public enum CardField: Int, CaseIterable, Sendable {
    case id, type, viewed, created, updated, expiresAt, categories, extras
    case image, imageAlt, language, title, description, descriptions, url, domain, aspectRatio, useWebView
    case dismissed, removed, pinned, dismissible, isTest, clicked
    case subtitle, caption, rating, reviews, price, displayPrice, mediaType, itunesID, universal

    public var declaration: Declaration { Self.declarations[rawValue] }

    private static let declarations = allCases.map(\.declared)

    private var declared: Declaration {
        switch self {
        // Every card, control cards too.
        case .id: Declaration("id", .ownCode)
        case .type: Declaration("type", short: "tp", .ownCode)
        case .viewed: Declaration("viewed", short: "v", .flag, settable: true, template: "viewed", help: "True for a card the user has seen.")
        case .created: Declaration("created", short: "ca", .ownCode)
        case .updated: Declaration("updated", .ownCode)
        case .expiresAt: Declaration("expires_at", short: "ea", .time, settable: true, whenUnreadable: "the card does not expire")
        case .categories: Declaration("categories", .ownCode)
        case .extras: Declaration("extras", short: "e", .ownCode, counted: true)
        case .pinned: Declaration("pinned", short: "p", .flag, settable: true, template: "pinned", help: "True for a pinned card.")
        case .dismissed: Declaration("dismissed", short: "d", .flag)
        case .removed: Declaration("removed", short: "r", .ownCode)
        case .dismissible: Declaration("dismissible", short: "db", .flag, settable: true, template: "dismissible", help: "True for a card the user may dismiss.")
        case .isTest: Declaration("test", short: "t", .flag)
        case .clicked: Declaration("clicked", short: "cl", .flag)
        case .useWebView: Declaration("use_webview", short: "uw", .flag, settable: true)
        // Every card shown (not control cards).
        case .title: Declaration("title", short: "tt", .text, of: .shown, settable: true, counted: true, template: "title", help: "Its title.")
        case .description: Declaration("description", short: "ds", .text, of: .shown, settable: true, counted: true)
        case .domain: Declaration("domain", short: "dm", .text, of: .shown, settable: true, counted: true, template: "domain", help: "Its link's text, as the card file gives it.")
        case .imageAlt: Declaration("image_alt", .text, of: .shown, settable: true, counted: true)
        case .language: Declaration("language", .text, of: .shown, template: "language", help: "The card's language tag.")
        case .aspectRatio: Declaration("aspect_ratio", short: "ar", .positiveNumber, of: .shown, settable: true)
        case .url: Declaration("url", short: "u", .link, of: .shown, settable: true, counted: true, template: "url", help: "Its link's address.")
        case .image: Declaration("image", short: "i", .image, of: .shown, settable: true, counted: true)
        // Cross promotion cards alone.
        case .subtitle: Declaration("subtitle", .text, of: .crossPromotion, settable: true, counted: true, template: "subtitle", help: "A cross promotion's subtitle.")
        case .caption: Declaration("caption", .text, of: .crossPromotion, settable: true, counted: true, template: "caption", help: "A cross promotion's caption.")
        case .rating: Declaration("rating", .ownCode, of: .crossPromotion)
        case .reviews: Declaration("reviews", .ownCode, of: .crossPromotion)
        case .price: Declaration("price", .ownCode, of: .crossPromotion)
        case .displayPrice: Declaration("display_price", .text, of: .crossPromotion, settable: true, counted: true)
        case .mediaType: Declaration("media_type", .text, of: .crossPromotion, template: "mediaType", help: "A cross promotion's media type: `ItunesAlbum`...")
        case .itunesID: Declaration("itunes_id", .integer, of: .crossPromotion, template: "itunesID", help: "A cross promotion's App Store id.")
        case .universal: Declaration("universal", .flag, of: .crossPromotion, template: "universal", help: "True for a cross promotion of a universal app.")
        // No key in card files (a card says it in its extras, `cardfeed_descriptions`).
        case .descriptions: Declaration("descriptions", .format, of: .rulesOnly, settable: true)
        }
    }

    /// One field's declaration.
    public struct Declaration: Sendable {
        /// The News Feed (long) key, which is also the name a rule's `set:` gives.
        public let key: String
        /// The Content Cards (short) key, when the field has one.
        public let shortKey: String?
        public let value: Value
        public let scope: Scope
        /// Whether a rule's `set:` may change it.
        public let settable: Bool
        /// Whether its text counts toward Braze's 2 KB of content.
        public let counted: Bool
        /// The name the card view gives it as it is, when it has one (text, a link, a flag or a
        /// whole number); fields shown through a view of their own (dates, images, prices) are
        /// named by the card view.
        public let template: String?
        /// What docs/templates.md says of its template name.
        public let help: String?
        /// What a card's reader says follows from a value it cannot read, after "ignored; ".
        public let whenUnreadable: String?

        init(
            _ key: String, short: String? = nil, _ value: Value, of scope: Scope = .every, settable: Bool = false, counted: Bool = false,
            template: String? = nil, help: String? = nil, whenUnreadable: String? = nil
        ) {
            self.key = key
            shortKey = short
            self.value = value
            self.scope = scope
            self.settable = settable
            self.counted = counted
            self.template = template
            self.help = help
            self.whenUnreadable = whenUnreadable
        }
    }

    /// What a field holds, which says how card files and rules write it. Where it is kept is
    /// `Card.Fields`' subscript by field.
    public enum Value: Sendable {
        /// Text; blank text is none.
        case text
        /// A link, checked before it is kept.
        case link
        /// An image's URL or asset, checked before it is kept.
        case image
        case flag
        /// A number above 0; 0 or less (Braze's 0 for unknown) is none.
        case positiveNumber
        case integer
        /// Unix seconds, written as a number or an ISO 8601 time; a negative number is none.
        case time
        /// How the title and description are shown.
        case format
        /// Read by `CardDecoder`'s own code: the id and type that say what the entry is, dates
        /// with a fallback, lists and objects, and values checked against each other.
        case ownCode
    }

    /// Which cards have the field in their files.
    public enum Scope: Sendable {
        case every
        /// Every card but control cards, which are never shown.
        case shown
        case crossPromotion
        /// None: only rules set it.
        case rulesOnly

        public func includes(_ type: CardType) -> Bool {
            switch self {
            case .every: true
            case .shown: type != .control
            case .crossPromotion: type == .crossPromotionSmall
            case .rulesOnly: false
            }
        }
    }

    /// The fields card files may hold.
    public static let written = allCases.filter { $0.declaration.scope != .rulesOnly }

    /// The field whose long or short key is `key`.
    public static func written(key: String) -> CardField? { byKey[key] }

    private static let byKey: [String: CardField] = {
        var fields: [String: CardField] = [:]
        for field in written {
            fields[field.declaration.key] = field
            if let short = field.declaration.shortKey { fields[short] = field }
        }
        return fields
    }()

    /// The fields card files may hold for cards of `type`, in the table's order.
    public static func read(by type: CardType) -> [CardField] { readByType[type] ?? [] }

    private static let readByType = Dictionary(uniqueKeysWithValues: CardType.allCases.map { type in
        (type, allCases.filter { $0.declaration.scope.includes(type) })
    })

    /// The fields whose text counts toward Braze's 2 KB.
    public static let counted = allCases.filter(\.declaration.counted)

    /// The fields a rule's `set:` may change, by key.
    public static let settable = Dictionary(uniqueKeysWithValues: allCases.filter(\.declaration.settable).map { ($0.declaration.key, $0) })
}
