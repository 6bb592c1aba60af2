import Foundation
import CardFeedSystem
import Synchronization

/// One card, normalised from either Braze key style (News Feed long keys or Content Cards short
/// keys). Every value here has already been checked: URLs are safe to put in a page, timestamps
/// are Unix seconds, categories are known ones.
///
/// A card is read as `card.title`, `card.pinned`..., which are the fields of `Card.Fields`. Its
/// copies share one storage: a build passes each of a million cards from decoder to merger to
/// renderer, and a copy of the fields themselves would retain, and later release, each of their
/// strings at every step. Setting a field gives the card storage of its own; decoders build
/// `Fields` first.
@dynamicMemberLookup
public struct Card: Sendable {
    /// Everything a card says. `Hashable` as the compiler writes it, from every field; `serve`
    /// and the build cache reuse a rendered card under a key made from its fields (see
    /// `CardRenderKey` and `stableHash(into:)`, which `ReuseKeyTests` holds to every field).
    /// (`Decodable`, also written by the compiler, lets the tests make a copy with any one field
    /// changed.)
    public struct Fields: Sendable, Hashable, Decodable {
        public var id: String
        public var type: CardType
        public var viewed = false
        /// Unix seconds; `nil` when the card has no date (it shows none, and sorts as the oldest).
        public var created: Int64?
        /// Unix seconds; equals `created` when the card has no `updated` (Content Cards never do),
        /// 0 when it has neither.
        public var updated: Int64 = 0
        /// Unix seconds; `nil` means the card never expires.
        public var expiresAt: Int64?
        /// Sorted, without duplicates; empty means the card belongs to the uncategorized feed.
        public var categories: [FeedCategory] = []
        /// Sorted by key so that output is deterministic.
        public var extras: [Extra] = []

        /// `nil` when the card has no usable image: templates show the placeholder.
        public var image: CardImage?
        public var imageAlt: String?
        /// A BCP 47 language tag (`ar`, `pt-BR`), checked and in canonical case.
        public var language: String?
        public var title: String?
        /// Markdown source, or plain text when `descriptionFormat` is `.text`.
        public var description: String?
        /// How the title and description are shown.
        public var descriptionFormat = DescriptionFormat.markdown
        public var url: String?
        public var domain: String?
        /// Width divided by height; `nil` when unknown (Braze writes 0 for unknown).
        public var aspectRatio: Double?
        public var useWebView = false

        // Content Cards state.
        public var pinned = false
        public var dismissed = false
        public var removed = false
        public var dismissible = false
        public var isTest = false
        public var clicked = false

        // Cross promotion (News Feed only).
        public var subtitle: String?
        public var caption: String?
        /// Above 0, up to 5.0; `nil` also for Braze's 0, which means the item is not an app
        /// (and then `reviews` is `nil` too).
        public var rating: Double?
        public var reviews: Int?
        public var price: Double?
        public var displayPrice: String?
        public var mediaType: String?
        public var itunesID: Int64?
        public var universal = false

        // Set from documented extras keys (see `CardDecoder.styleExtras`).
        /// Checked CSS custom properties for this card alone ("surface" -> "#fff8e1").
        public var styles: [CSSProperty] = []
        /// The site template `cards/<name>` that renders this card instead of its type's.
        public var templateName: String?

        /// Where the card was read: for messages, and to break ties between duplicates. Not in
        /// the card's reuse key: it does not change how the card renders, and an edit that
        /// changes a length early in a file moves the offset of every card after it.
        @KeyExempt public var source: CardSource

        public init(id: String, type: CardType, source: CardSource) {
            self.id = id
            self.type = type
            self.source = source
        }
    }

    private final class Storage: Sendable {
        let fields: Fields
        /// `fields.stableHash`, once known (`learn`).
        private let hash = Atomic<Int>(0)
        private let hashKnown = Atomic<Bool>(false)

        init(_ fields: Fields, fieldsHash: Int? = nil) {
            self.fields = fields
            if let fieldsHash { learn(fieldsHash) }
        }

        var fieldsHash: Int? { hashKnown.load(ordering: .acquiring) ? hash.load(ordering: .relaxed) : nil }

        /// Keeps `fields.stableHash`, which may be worked out on both cores at once: each finds
        /// the same value, and whoever reads it sees it whole.
        func learn(_ fieldsHash: Int) {
            hash.store(fieldsHash, ordering: .relaxed)
            hashKnown.store(true, ordering: .releasing)
        }
    }

    private var storage: Storage

    public init(_ fields: Fields) {
        storage = Storage(fields)
    }

    /// A card whose fields' hash is known: read back from the build cache with its fields.
    package init(_ fields: Fields, fieldsHash: Int) {
        storage = Storage(fields, fieldsHash: fieldsHash)
    }

    /// The hash of its fields that the build cache's keys are made with (`Fields.stableHash`):
    /// worked out once, and kept by the card and its copies until a field is set, and with the
    /// card in the cache, so that a rebuild does not hash 100,000 cards' fields again.
    package var fieldsHash: Int {
        if let known = storage.fieldsHash { return known }
        let hash = storage.fields.stableHash
        storage.learn(hash)
        return hash
    }

    /// Writes the card's fields and then its source (`Fields.write(into:)`), and returns the
    /// fields' hash, worked out from the bytes written when the card did not know it yet (and
    /// kept): the build cache writes each card it decodes, and hashing them as it does costs a
    /// tenth of writing them again for the hash alone (see `StableHasher`).
    package func write(into writer: inout BinaryWriter) -> Int {
        let fieldBytes = fields.write(into: &writer)
        if let known = storage.fieldsHash { return known }
        let hash = StableHasher.hash(ofWritten: writer.bytes[fieldBytes])
        storage.learn(hash)
        return hash
    }

    /// Where the card was read. Not in its fields' hash (see `Fields.source`): a card moved
    /// keeps it.
    public var source: CardSource {
        get { storage.fields.source }
        set {
            var fields = storage.fields
            fields.source = newValue
            storage = Storage(fields, fieldsHash: storage.fieldsHash)
        }
    }

    public init(id: String, type: CardType, source: CardSource) {
        self.init(Fields(id: id, type: type, source: source))
    }

    public var fields: Fields { storage.fields }

    public subscript<Value>(dynamicMember field: KeyPath<Fields, Value>) -> Value {
        storage.fields[keyPath: field]
    }

    public subscript<Value>(dynamicMember field: WritableKeyPath<Fields, Value>) -> Value {
        get { storage.fields[keyPath: field] }
        set {
            var fields = storage.fields
            fields[keyPath: field] = newValue
            storage = Storage(fields)
        }
    }

    /// A field of `CardField`'s table, by the field (see `Fields[field]`).
    public subscript(field: CardField) -> FieldContent? {
        get { storage.fields[field] }
        set {
            var fields = storage.fields
            fields[field] = newValue
            storage = Storage(fields)
        }
    }

    /// Whether the card's image is all it shows (a banner, or a card with neither title nor
    /// description), so that a screen reader needs words for the image itself.
    public var showsOnlyItsImage: Bool {
        fields.type == .bannerImage || ((fields.title ?? "").isEmpty && (fields.description ?? "").isEmpty)
    }

    /// One of a card's `extras`: a key and its text.
    public struct Extra: Sendable, Hashable, Decodable {
        public var key: String
        public var value: String

        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    /// The time used to sort cards and to pick the newer of two duplicates: `updated`, which
    /// is `created` for cards without one.
    public var sortTime: Int64 { storage.fields.updated }
}

/// A CSS custom property's name (without `--cf-`) and value, as a card's style extras and the
/// theme of cardfeed.yml set them.
public struct CSSProperty: Sendable, Hashable, Decodable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Where a card's image comes from.
public enum CardImage: Sendable, Hashable, Decodable {
    /// An http(s) URL, used as it is.
    case remote(String)
    /// A file in SITE/assets/ (path relative to that folder), copied into the output.
    case asset(String)
}

/// The wire type names of Braze cards.
public enum CardType: String, Sendable, CaseIterable, Comparable, Decodable {
    case bannerImage = "banner_image"
    case captionedImage = "captioned_image"
    case shortNews = "short_news"
    case textAnnouncement = "text_announcement"
    case crossPromotionSmall = "cross_promotion_small"
    case control

    /// Reads a wire name, or one of the names people type by hand for the same card.
    public init?(wireName: String) {
        if let type = CardType(rawValue: wireName) {  // the usual case: a wire name as it is
            self = type
            return
        }
        let name = wireName.trimmingCharacters(in: .whitespaces).lowercased()
        if let type = CardType(rawValue: name) {
            self = type
            return
        }
        switch name {
        case "banner", "image_only", "imageonly", "image-only": self = .bannerImage
        case "classic": self = .shortNews
        case "captioned", "captioned-image": self = .captionedImage
        default: return nil
        }
    }

    /// The types that have a template of their own (control cards are never shown).
    public static var renderable: [CardType] { allCases.filter { $0 != .control } }

    /// Why `name` is no type, with the type it was probably meant to be (`Suggestion`) and those
    /// there are: `unknown type "captioned_imag" (did you mean "captioned_image"?); the types
    /// are ...`.
    public static func unknown(_ name: String) -> String {
        let aliases = ["banner", "image_only", "classic"]
        let known = allCases.map(\.rawValue)
        return "unknown type \(Diagnostic.quoted(name))\(Suggestion.phrase(for: name.trimmingCharacters(in: .whitespaces), among: known + aliases)); "
            + "the types are \(known.joined(separator: ", ")), and the aliases \(aliases.joined(separator: ", "))"
    }

    public static func < (lhs: CardType, rhs: CardType) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The categories Braze's News Feed knows.
public enum FeedCategory: String, Sendable, CaseIterable, Comparable, Decodable {
    case news, advertising, announcements, social

    /// Why `name` is no category, with the one it was probably meant to be (`Suggestion`) and
    /// those there are (`uncategorized` too where it is one: a feed's or a rule's match).
    public static func unknown(_ name: String, uncategorized: Bool = false) -> String {
        let known = allCases.map(\.rawValue) + (uncategorized ? ["uncategorized"] : [])
        return "unknown category \(Diagnostic.quoted(name))\(Suggestion.phrase(for: name.trimmingCharacters(in: .whitespaces), among: known)); "
            + "the categories are \(known.joined(separator: ", "))"
    }

    /// Matches `news`, `NEWS`, `ABKCardCategoryNews` alike.
    public init?(wireName: String) {
        if let category = FeedCategory(rawValue: wireName) {  // the usual case: lower-case on the wire
            self = category
            return
        }
        var name = wireName.trimmingCharacters(in: .whitespaces).lowercased()
        if name.hasPrefix("abkcardcategory") { name.removeFirst("abkcardcategory".count) }
        guard let category = FeedCategory(rawValue: name) else { return nil }
        self = category
    }

    /// The English name, "News".
    public var title: String {
        switch self {
        case .news: "News"
        case .advertising: "Advertising"
        case .announcements: "Announcements"
        case .social: "Social"
        }
    }

    /// The key of its feed's title in the string tables: "feedNews".
    package var titleKey: String { "feed" + title }

    public static func < (lhs: FeedCategory, rhs: FeedCategory) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Where a card was read from.
public struct CardSource: Sendable, Hashable, Decodable, CustomStringConvertible {
    /// The file's path as the user would write it (relative to the working directory where possible).
    public var file: String
    /// Position in the file's list of cards, from 0.
    public var index: Int
    /// Position among all cards read, for deterministic tie breaks.
    public var order: Int
    /// The byte offset in the file where the card's JSON begins, when known: turned into a line
    /// and column only for the cards a message is about (see `Diagnostics.locateCards`).
    public var offset: Int?
    /// The key (`url` or `u`) of a link the file gave as spaces only, which leaves the card
    /// without a link: the build warns once the rules, which may give it one, have run, when the
    /// card has a domain, the link's words, which then shows nowhere either.
    public var blankLinkKey: String?

    public init(file: String, index: Int, order: Int, offset: Int? = nil) {
        self.file = file
        self.index = index
        self.order = order
        self.offset = offset
    }

    /// `site/cards.json: card 4`: cards are counted from 1 in messages, as people count.
    public var description: String { "\(file): card \(index + 1)" }
}

extension Card.Fields {
    /// Every field but `source` (as `Hashable`, see `KeyExempt`), for the build cache's card keys
    /// (`StableHasher`): the fields as the cache writes them (`write(fieldsInto:)`, one list of
    /// them for both). `ReuseKeyTests` edits every field the type has, one at a time, and expects
    /// the key to change; `CardRecordTests` reads every field back: a field added to the type and
    /// not there fails both.
    package func stableHash(into hasher: inout StableHasher) {
        hasher.combine(writtenBy: write(fieldsInto:))
    }

    /// The fields' own hash (`stableHash(into:)`), which a card's key is made with
    /// (`Card.fieldsHash`).
    package var stableHash: Int {
        StableHasher.hash { stableHash(into: &$0) }
    }
}

