/// A field of a card, declared once, in `declaration`'s switch: the keys card files write it
/// with, where it is kept in `Card.Fields`, and who else reads it. The card reader
/// (`CardDecoder`), Braze's size check, the rules of cardfeed.yml and the card view of the
/// templates all work from this table, so a field added here is read in both key styles,
/// counted, settable and shown as its declaration says, with no other list to extend.
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
        case .viewed: Declaration("viewed", short: "v", .flag(\.viewed), settable: true, template: "viewed")
        case .created: Declaration("created", short: "ca", .ownCode)
        case .updated: Declaration("updated", .ownCode)
        case .expiresAt: Declaration("expires_at", short: "ea", .time(\.expiresAt), settable: true, whenUnreadable: "the card does not expire")
        case .categories: Declaration("categories", .ownCode)
        case .extras: Declaration("extras", short: "e", .ownCode, counted: true)
        case .pinned: Declaration("pinned", short: "p", .flag(\.pinned), settable: true, template: "pinned")
        case .dismissed: Declaration("dismissed", short: "d", .flag(\.dismissed))
        case .removed: Declaration("removed", short: "r", .ownCode)
        case .dismissible: Declaration("dismissible", short: "db", .flag(\.dismissible), settable: true, template: "dismissible")
        case .isTest: Declaration("test", short: "t", .flag(\.isTest))
        case .clicked: Declaration("clicked", short: "cl", .flag(\.clicked))
        case .useWebView: Declaration("use_webview", short: "uw", .flag(\.useWebView), settable: true)
        // Every card shown (not control cards).
        case .title: Declaration("title", short: "tt", .text(\.title), of: .shown, settable: true, counted: true, template: "title")
        case .description: Declaration("description", short: "ds", .text(\.description), of: .shown, settable: true, counted: true)
        case .domain: Declaration("domain", short: "dm", .text(\.domain), of: .shown, settable: true, counted: true, template: "domain")
        case .imageAlt: Declaration("image_alt", .text(\.imageAlt), of: .shown, settable: true, counted: true)
        case .language: Declaration("language", .text(\.language), of: .shown, template: "language")
        case .aspectRatio: Declaration("aspect_ratio", short: "ar", .positiveNumber(\.aspectRatio), of: .shown, settable: true)
        case .url: Declaration("url", short: "u", .link(\.url), of: .shown, settable: true, counted: true, template: "url")
        case .image: Declaration("image", short: "i", .image(\.image), of: .shown, settable: true, counted: true)
        // Cross promotion cards alone.
        case .subtitle: Declaration("subtitle", .text(\.subtitle), of: .crossPromotion, settable: true, counted: true, template: "subtitle")
        case .caption: Declaration("caption", .text(\.caption), of: .crossPromotion, settable: true, counted: true, template: "caption")
        case .rating: Declaration("rating", .ownCode, of: .crossPromotion)
        case .reviews: Declaration("reviews", .ownCode, of: .crossPromotion)
        case .price: Declaration("price", .ownCode, of: .crossPromotion)
        case .displayPrice: Declaration("display_price", .text(\.displayPrice), of: .crossPromotion, settable: true, counted: true)
        case .mediaType: Declaration("media_type", .text(\.mediaType), of: .crossPromotion, template: "mediaType")
        case .itunesID: Declaration("itunes_id", .integer(\.itunesID), of: .crossPromotion, template: "itunesID")
        case .universal: Declaration("universal", .flag(\.universal), of: .crossPromotion, template: "universal")
        // No key in card files (a card says it in its extras, `cardfeed_descriptions`).
        case .descriptions: Declaration("descriptions", .format(\.descriptionFormat), of: .rulesOnly, settable: true)
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
        /// What a card's reader says follows from a value it cannot read, after "ignored; ".
        public let whenUnreadable: String?

        init(
            _ key: String, short: String? = nil, _ value: Value, of scope: Scope = .every, settable: Bool = false, counted: Bool = false,
            template: String? = nil, whenUnreadable: String? = nil
        ) {
            self.key = key
            shortKey = short
            self.value = value
            self.scope = scope
            self.settable = settable
            self.counted = counted
            self.template = template
            self.whenUnreadable = whenUnreadable
        }
    }

    /// What a field holds, and where in `Card.Fields`.
    public enum Value: Sendable {
        /// Text; blank text is none.
        case text(WritableKeyPath<Card.Fields, String?> & Sendable)
        /// A link, checked before it is kept.
        case link(WritableKeyPath<Card.Fields, String?> & Sendable)
        /// An image's URL or asset, checked before it is kept.
        case image(WritableKeyPath<Card.Fields, CardImage?> & Sendable)
        case flag(WritableKeyPath<Card.Fields, Bool> & Sendable)
        /// A number above 0; 0 or less (Braze's 0 for unknown) is none.
        case positiveNumber(WritableKeyPath<Card.Fields, Double?> & Sendable)
        case integer(WritableKeyPath<Card.Fields, Int64?> & Sendable)
        /// Unix seconds, written as a number or an ISO 8601 time; a negative number is none.
        case time(WritableKeyPath<Card.Fields, Int64?> & Sendable)
        /// How the title and description are shown.
        case format(WritableKeyPath<Card.Fields, DescriptionFormat> & Sendable)
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
