import Foundation
import CardFeedModel
import CardFeedSystem

/// The first few ids of the cards not shown for each reason, for the summary to name them.
public struct SkippedExamples: Sendable {
    public static let kept = 3
    public private(set) var ids: [SkipReason: [String]] = [:]

    public init() {}

    package mutating func add(_ id: String, _ reason: SkipReason) {
        if ids[reason, default: []].count < Self.kept { ids[reason, default: []].append(id) }
    }

    package mutating func merge(_ other: SkippedExamples) {
        for (reason, list) in other.ids { list.forEach { add($0, reason) } }
    }
}

/// Why a card read from a file is not in any feed.
public enum SkipReason: String, Sendable, CaseIterable, Comparable {
    case invalid = "invalid"
    case unknownType = "unknown type"
    case duplicate = "duplicate id"
    case replacedBySync = "replaced by a later sync"
    case removed = "removed"
    case dismissed = "dismissed"
    case expired = "expired"
    case future = "waiting for their date"
    case control = "control"
    case hiddenByRule = "hidden by a rule"
    /// Shown by none of the feeds cardfeed.yml defines.
    case inNoFeed = "in no feed"

    public static func < (lhs: SkipReason, rhs: SkipReason) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// What one entry of a card file turned out to be.
package enum DecodedEntry {
    case card(Card)
    /// A Content Cards sync entry `{"id": X, "r": true}`: card X is deleted.
    case removal(id: String, source: CardSource)
    /// Not a card; its id when it has one (the warning about it says why).
    case skipped(SkipReason, id: String?)
}

/// Turns one JSON object into a `Card`, in either key style, checking every field. A value,
/// `Hashable` as the compiler writes it: `serve` keeps decoded cards under a key made from it
/// (see `CardLoader`), so a setting of the decoder added here counts with no other edit.
/// (`Decodable`, also written by the compiler, lets the tests make a copy with any one setting
/// changed: see `ReuseKeyTests`.)
package struct CardDecoder: Sendable, Hashable, Decodable {
    /// Braze refuses a card whose content (text, URLs, extras) is larger than this.
    static let contentLimit = 2048
    /// The most text (keys and string values, in UTF-8 bytes) one card may hold here; a bigger
    /// card is skipped before any of it is read. 32 times Braze's limit leaves room for cards
    /// written by hand, and keeps what one card can cost bounded: Debian's libcmark 0.30.2 is
    /// quadratic on some input (CVE-2023-22486, `![[]()` repeated), which at this size takes
    /// well under a second, and cmark's memory for one description stays a few megabytes.
    static let sizeLimit = 65_536

    /// The files of SITE/assets/ a card's image may name.
    var assets: AssetFiles
    /// Schemes a card's link may use (the site's app schemes included).
    var linkSchemes: Set<String> = URLCheck.linkSchemes
    /// The clocks a card's time without an offset (a date alone: midnight) is read on.
    package var timeZone: SiteTimeZone = .utc
    /// How a card's title and description are shown unless its extras say otherwise.
    var descriptions: DescriptionFormat = .markdown

    /// Extras keys that style one card (see `CardStyle` for the custom properties they set).
    static let styleExtras = ["background_color", "text_color", "accent_color"]
    /// The extras key that picks a site template for one card.
    static let templateExtra = "template"

    /// `restTime`: the time a REST `content_card` object's `time_to_live` counts from when it
    /// gives no `created` or `send_at` (see `RESTContentCard`).
    func decode(_ value: JSONValue, source: CardSource, keyStyle: FieldReader.KeyStyle = .long, restTime: Int64? = nil) -> (DecodedEntry, [Diagnostic]) {
        let (entry, diagnostics, _) = decodeNotingTime(value, source: source, keyStyle: keyStyle, restTime: restTime)
        return (entry, diagnostics)
    }

    /// `decode`, and whether what it gave depends on `restTime`: only a REST `content_card`
    /// object's does, so the build cache keeps any other entry whatever the time.
    func decodeNotingTime(_ value: JSONValue, source: CardSource, keyStyle: FieldReader.KeyStyle = .long, restTime: Int64? = nil) -> (DecodedEntry, [Diagnostic], readsTime: Bool) {
        guard case .object(let object) = value else {
            var diagnostic = Diagnostic(
                .warning, file: source.file, cardIndex: source.index,
                message: "expected a card object, found \(value.noun); skipped")
            diagnostic.cardOffset = source.offset
            return (.skipped(.invalid, id: nil), [diagnostic], false)
        }
        var reader = FieldReader(object: object, file: source.file, index: source.index, timeZone: timeZone, keyStyle: keyStyle)
        if reader.isRESTContentCard {
            let (entry, diagnostics) = decodeREST(object, source: source, restTime: restTime, textBytes: Self.textBytes(value))
            return (entry, diagnostics, true)
        }
        let entry = decode(&reader, source: source, textBytes: Self.textBytes(value))
        if !reader.ignoredKeys.isEmpty, case .card(let card) = entry {
            var note = Diagnostic(.warning, file: source.file, cardIndex: source.index, cardID: card.id, message: "gives a field in both key styles")
            note.keysSetAside = reader.ignoredKeys
            reader.note(note)
        }
        guard source.offset != nil else { return (entry, reader.diagnostics, false) }
        return (entry, reader.diagnostics.map { var diagnostic = $0; diagnostic.cardOffset = source.offset; return diagnostic }, false)
    }

    /// A REST `content_card` object, read as the card it becomes; its messages name its own keys.
    private func decodeREST(_ object: [(key: String, value: JSONValue)], source: CardSource, restTime: Int64?, textBytes: Int) -> (DecodedEntry, [Diagnostic]) {
        let translation = RESTContentCard.translate(object, time: restTime)
        var reader = FieldReader(object: translation.object, file: source.file, index: source.index, timeZone: timeZone)
        let entry: DecodedEntry
        if translation.unknownType {
            reader.cardID = reader.string(.id)
            entry = .skipped(.unknownType, id: reader.cardID)
        } else {
            entry = decode(&reader, source: source, textBytes: textBytes)
            if case .card(let card) = entry, card.type == .shortNews || card.type == .textAnnouncement, !object.contains(where: { $0.key == "title" }) {
                reader.warn("title", "missing (Braze's API requires it for CLASSIC cards, and refuses the message without it; \"\" is a card without a title)")
            }
        }
        // A card skipped for its type gets that warning alone.
        for problem in translation.problems where !translation.unknownType || problem.key == "type" { reader.warn(problem.key, problem.message) }
        let diagnostics = reader.diagnostics.map { diagnostic in
            var diagnostic = diagnostic
            diagnostic.cardOffset = source.offset
            if let field = diagnostic.field {
                let name = field.split(separator: ".", maxSplits: 1).first.map(String.init) ?? field
                if let restKey = translation.restKey[name], restKey != name { diagnostic.field = restKey + field.dropFirst(name.count) }
            }
            return diagnostic
        }
        return (entry, diagnostics)
    }

    private func decode(_ reader: inout FieldReader, source: CardSource, textBytes: Int) -> DecodedEntry {
        guard let id = reader.string(.id) else {
            if reader.string(.type).flatMap(CardType.init(wireName:)) == .control { return .skipped(.control, id: nil) }
            reader.warn("id", "missing; every card needs an id, so this one is skipped")
            return .skipped(.invalid, id: nil)
        }
        reader.cardID = id.utf8.count > 256 ? String(id.prefix(64)) + "…" : id
        guard textBytes <= Self.sizeLimit else {
            reader.warn(nil, "holds \(textBytes) bytes of text, over the \(Self.sizeLimit / 1024) KB a card may hold (Braze's own limit is 2 KB); skipped",
                        summary: "holds over the \(Self.sizeLimit / 1024) KB of text a card may hold (Braze's own limit is 2 KB); skipped")
            return .skipped(.invalid, id: id)
        }
        reader.cardID = id
        reader.warnAboutMisspelledKeys()
        if reader.bool(.removed) == true {
            return .removal(id: id, source: source)
        }
        guard let typeName = reader.string(.type) else {
            reader.warn(reader.keyName(.type), "missing; the card is skipped")
            return .skipped(.invalid, id: id)
        }
        guard var type = CardType(wireName: typeName) else {
            reader.warn(reader.keyName(.type), "\(CardType.unknown(typeName)); the card is skipped")
            return .skipped(.unknownType, id: id)
        }
        var card = Card.Fields(id: id, type: type, source: source)
        readDatesAndLists(&card, &reader)
        // Braze refuses a card over 2 KB of content, the text of the fields `CardField` declares
        // `counted`, as kept, added up as they are read (extras, read above, by their keys and
        // values). Such a card is still shown, with a warning: the site owner may have written it
        // by hand.
        var contentBytes = CardField.extras.declaration.counted ? card.extras.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count } : 0
        for field in CardField.read(by: type) {
            contentBytes += read(field, into: &card, &reader)
        }
        if type == .control { return .card(Card(card)) }

        checkDescription(card, &reader)
        checkLanguage(&card, &reader)
        if type == .crossPromotionSmall { readPrices(&card, &reader) }
        // An image-less Classic card is a text announcement, as Braze's Android SDK decides.
        if type == .shortNews && !reader.hasContent(.image) {
            type = .textAnnouncement
            card.type = type
        }
        checkRequiredFields(&card, &reader)
        card.source.blankLinkKey = blankLinkKey(card, reader)
        if contentBytes > Self.contentLimit {
            reader.warn(nil, "content is \(contentBytes) bytes, over Braze's 2 KB limit (\(Self.contentLimit) bytes); shown anyway",
                        summary: "content over Braze's 2 KB limit (\(Self.contentLimit) bytes); shown anyway")
        }
        return .card(Card(card))
    }

    /// Reads a field the table says how to read (fields of `.ownCode` are read by the functions
    /// named after them); returns the bytes of text it keeps, when the field is `counted`.
    private func read(_ field: CardField, into card: inout Card.Fields, _ reader: inout FieldReader) -> Int {
        let declaration = field.declaration
        var text: String?
        switch declaration.value {
        case .text:
            text = reader.string(field)
            card[field] = .text(text)
        case .link:
            guard let url = reader.string(field) else { return 0 }
            let (link, problem) = checkLink(url)
            if let problem { reader.warn(reader.lookup(field)?.key, problem) }
            card[field] = .text(link)
            text = link
        case .image:
            guard let image = reader.string(field) else { return 0 }
            let (checked, problem) = checkImage(image)
            if let problem { reader.warn(reader.lookup(field)?.key, problem) }
            card[field] = .image(checked)
            switch checked {
            case .remote(let url), .asset(let url): text = url
            case nil: break
            }
        case .flag: card[field] = .flag(reader.bool(field) ?? false)
        case .positiveNumber:
            if let number = reader.number(field), number > 0 { card[field] = .number(number) }
        case .integer: card[field] = .integer(reader.integer(field))
        case .time: card[field] = .integer(reader.timestamp(field, unreadable: "ignored; " + (declaration.whenUnreadable ?? "the card has no \(declaration.key)")))
        case .format, .ownCode: break  // `.format` is no key of card files (`CardField.Scope.rulesOnly`)
        }
        return declaration.counted ? text?.utf8.count ?? 0 : 0
    }

    private func readDatesAndLists(_ card: inout Card.Fields, _ reader: inout FieldReader) {
        let noDate = "the card shows no date and sorts as the oldest"
        let warningsBefore = reader.diagnostics.count
        if let created = reader.timestamp(.created, unreadable: noDate) {
            card.created = created
        } else if card.type != .control && reader.diagnostics.count == warningsBefore {
            reader.warn(reader.keyName(.created), "missing; \(noDate)")  // or negative, "never"
        }
        card.updated = reader.timestamp(.updated, unreadable: "ignored; the card sorts by its created time") ?? card.created ?? 0
        card.categories = readCategories(&reader)
        card.extras = reader.stringMap(.extras)
        readStyleExtras(&card, &reader)
    }

    /// `background_color`, `text_color` and `accent_color` style one card; `template` picks a
    /// site template; `cardfeed_descriptions` sets how its text is shown. Values are checked, so
    /// that no extra can inject CSS or a path.
    private func readStyleExtras(_ card: inout Card.Fields, _ reader: inout FieldReader) {
        let key = reader.lookup(.extras)?.key ?? "extras"
        var colors: [String: String] = [:]
        for extra in Self.styleExtras {
            guard let value = card.extras.first(where: { $0.key == extra })?.value else { continue }
            guard CSSValue.isColor(value) else {
                reader.warn("\(key).\(extra)", "\(Diagnostic.quoted(value)) is not a CSS colour (such as #1e40af, rgb(30 64 175) or navy); ignored",
                            summary: "the value is not a CSS colour (such as #1e40af, rgb(30 64 175) or navy); ignored")
                continue
            }
            colors[extra] = value.trimmingCharacters(in: .whitespaces)
        }
        card.styles = CardStyle.properties(background: colors["background_color"], text: colors["text_color"], accent: colors["accent_color"])
        card.descriptionFormat = descriptions
        if let value = card.extras.first(where: { $0.key == DescriptionFormat.extra })?.value {
            if let format = DescriptionFormat(rawValue: value.trimmingCharacters(in: .whitespaces).lowercased()) {
                card.descriptionFormat = format
            } else {
                let suggestion = Diagnostic.suggestion(for: value.lowercased(), among: Set(DescriptionFormat.allCases.map(\.rawValue)))
                reader.warn("\(key).\(DescriptionFormat.extra)", "\(Diagnostic.quoted(value)) is not a format\(suggestion): give \(DescriptionFormat.choices); the site's (\(descriptions.rawValue)) is used")
            }
        }
        if let name = card.extras.first(where: { $0.key == Self.templateExtra })?.value {
            if name.range(of: #"^[a-z0-9][a-z0-9_-]{0,63}$"#, options: .regularExpression) != nil {
                card.templateName = name
            } else {
                reader.warn("\(key).\(Self.templateExtra)", "\(Diagnostic.quoted(name)) is not a template name (lower-case letters, digits, - and _); the card's type template is used")
            }
        }
    }

    private func readCategories(_ reader: inout FieldReader) -> [FeedCategory] {
        var categories = Set<FeedCategory>()
        for name in reader.stringList(.categories) {
            if let category = FeedCategory(wireName: name) {
                categories.insert(category)
            } else if !["no_category", "abkcardcategorynocategory", "nocategory", ""].contains(name.lowercased()) {
                // No summary: each name is a fix of its own (cards that share one are one line).
                reader.warn("categories", "\(FeedCategory.unknown(name)); ignored")
            }
        }
        return categories.sorted()
    }

    /// Warns about what a Markdown description holds that a page will not show as written.
    private func checkDescription(_ card: Card.Fields, _ reader: inout FieldReader) {
        // Plain text is shown as typed: nothing in it is Markdown or HTML to check.
        guard let description = card.description, card.descriptionFormat == .markdown else { return }
        let key = reader.lookup(.description)?.key
        let changes = Markdown.markupChanges(description, linkSchemes: linkSchemes)
        if !changes.isEmpty {
            reader.warn(key, "HTML changed: \(changes.joined(separator: "; ")) (kept: \(AllowedHTML.summary))",
                        summary: "HTML changed: what descriptions may not hold is removed or shown as text (kept: \(AllowedHTML.summary)); each card's changes are in --diagnostics json")
        }
        for problem in Markdown.linkProblems(description, linkSchemes: linkSchemes, assets: assets) {
            reader.warn(key, problem)
        }
        if let line = Markdown.tableLine(description) {
            let consequence = "a Markdown table, which descriptions do not have (CommonMark): it is shown as text, pipes and all; write it as a list"
            reader.warn(key, "line \(line) makes " + consequence, summary: "makes " + consequence)
        }
    }

    /// Keeps a language tag in its canonical case, and no other text.
    private func checkLanguage(_ card: inout Card.Fields, _ reader: inout FieldReader) {
        guard let tag = card.language?.trimmingCharacters(in: .whitespaces) else { return }
        if StringTable.isLanguageTag(tag) { card.language = StringTable.canonical(tag) } else {
            card.language = nil
            // No summary: each tag has its own did-you-mean (cards that share one are one line).
            reader.warn(reader.lookup(.language)?.key, "\(Diagnostic.quoted(tag)) is not a language tag (BCP 47) such as en, ar or pt-BR\(StringTable.suggestedLanguageTag(for: tag)); ignored")
        }
    }

    /// A cross promotion's rating, review count and price, which depend on each other.
    private func readPrices(_ card: inout Card.Fields, _ reader: inout FieldReader) {
        let rating = reader.number(.rating)
        if let rating, rating != 0 {
            if (0...5).contains(rating) { card.rating = rating } else {
                reader.warn("rating", "\(FieldReader.format(rating)) is outside 0 to 5; ignored", summary: "the value is outside 0 to 5; ignored")
            }
        }
        // Braze sends a rating of 0 for anything but an app: such an item has neither stars nor
        // a review count to show.
        if let reviews = reader.integer(.reviews), rating != 0 { card.reviews = Int(clamping: max(0, reviews)) }
        if let price = reader.number(.price) { card.price = max(0, price) }
    }

    /// A link safe to put in a page, or the reason it was refused.
    package func checkLink(_ url: String) -> (String?, problem: String?) {
        switch URLCheck.check(url, allowedSchemes: linkSchemes) {
        case .absolute(let clean), .relative(let clean): return (Formatting.attributeURL(clean), nil)
        case .refused(let reason): return (nil, "\(reason); the card is shown without a link")
        }
    }

    /// An image URL or a file of SITE/assets/, or the reason it was refused.
    package func checkImage(_ image: String) -> (CardImage?, problem: String?) {
        switch URLCheck.check(image, allowedSchemes: URLCheck.imageSchemes) {
        case .absolute(let clean): return (.remote(clean), nil)
        case .refused(let reason): return (nil, "\(reason); the placeholder image is shown")
        case .relative(let path):
            guard let assetPath = URLCheck.assetPath(path) else {
                return (nil, "\(Diagnostic.quoted(path)) is outside the site's assets/ folder; the placeholder image is shown")
            }
            guard assets.contains(assetPath) else {
                return (nil, "no file assets/\(assetPath) in the site; the placeholder image is shown")
            }
            return (.asset(assetPath), nil)
        }
    }

    /// Warns about each missing required field of the card's type. Every card of a known type
    /// is shown, as Braze's Web SDK shows it, whatever fields it has.
    private func checkRequiredFields(_ card: inout Card.Fields, _ reader: inout FieldReader) {
        func require(_ field: CardField, _ present: Bool, _ consequence: String) {
            if !present && !reader.hasContent(field) { reader.warn(reader.keyName(field), "missing (required for \(card.type.rawValue) cards); \(consequence)") }
        }
        /// Text given empty (`"ds": ""`) is how Braze sends a field left empty: no mistake.
        func requireText(_ field: CardField, _ present: Bool, _ consequence: String) {
            require(field, present || reader.has(field), consequence)
        }
        let placeholder = "the placeholder image is shown"
        switch card.type {
        case .bannerImage:
            require(.image, card.image != nil, placeholder)
        case .captionedImage:
            require(.image, card.image != nil, placeholder)
            requireText(.title, card.title != nil, "the card is shown without a title")
            requireText(.description, card.description != nil, "the card is shown without a description")
        case .shortNews, .textAnnouncement:
            requireText(.description, card.description != nil, "the card is shown without a description")
        case .crossPromotionSmall:
            require(.image, card.image != nil, placeholder)
            requireText(.title, card.title != nil, "the card is shown without a title")
            requireText(.subtitle, card.subtitle != nil, "the card is shown without a subtitle")
            requireText(.caption, card.caption != nil, "the button is labelled with the default text")
            require(.price, card.price != nil || card.displayPrice != nil, "no price is shown")
            require(.url, card.url != nil, "the card is shown without a link")
        case .control:
            break
        }
        if [.shortNews, .textAnnouncement].contains(card.type) && card.title == nil && card.description == nil && card.url == nil && card.image == nil {
            reader.warn(nil, "has no title, description, link or image: shown as an empty card with its date, as Braze's Web SDK shows it")
        }
    }

    /// The key of a link of spaces only, which is no link (`CardSource.blankLinkKey`): the card
    /// then shows its domain, the link's words, nowhere either, which the build says after the
    /// rules. (Braze's Web SDK takes the spaces for a link, to the page itself, and shows the
    /// domain; an empty link, `""`, it leaves out as CardFeed does.)
    private func blankLinkKey(_ card: Card.Fields, _ reader: FieldReader) -> String? {
        guard card.url == nil, let (key, value) = reader.lookup(.url), case .string(let text) = value, !text.isEmpty, text.isBlank else { return nil }
        return key
    }

    /// UTF-8 bytes of every key and text value in `value`, at any depth.
    static func textBytes(_ value: JSONValue) -> Int {
        switch value {
        case .string(let text): return text.utf8.count
        case .array(let values): return values.reduce(0) { $0 + textBytes($1) }
        case .object(let pairs): return pairs.reduce(0) { $0 + $1.key.utf8.count + textBytes($1.value) }
        case .null, .bool, .number: return 0
        }
    }
}
