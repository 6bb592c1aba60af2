import Foundation
import CardFeedModel
import CardFeedSystem

/// Where `FieldReader` keeps the value of each key a card may have: a field's long key at its
/// number, its short key after all the long ones.
enum KeySlots {
    /// `allCases` makes a new array each time it is read.
    private static let fields = CardField.allCases.count
    static let count = 2 * fields

    static func long(_ field: CardField) -> Int { field.rawValue }
    static func short(_ field: CardField) -> Int { fields + field.rawValue }

    /// Each field's keys by its number, read for every field found: cheaper than a copy of the
    /// field's whole declaration, key path included.
    static let longKeys = CardField.allCases.map(\.declaration.key)
    static let shortKeys = CardField.allCases.map(\.declaration.shortKey)

    /// By slot, the slot of the same field's key in the other style, or -1 when it has none:
    /// looked up for every key of every card, so whole numbers rather than optional keys.
    static let twins: [Int] = (0..<count).map { slot in
        let field = slot % fields
        guard shortKeys[field] != nil else { return -1 }
        return slot < fields ? slot + fields : field
    }

    /// Every key card files may have, long and short, with its slot.
    static let byKey: [String: Int] = {
        var slots: [String: Int] = [:]
        for field in CardField.written {
            slots[field.declaration.key] = long(field)
            if let shortKey = field.declaration.shortKey { slots[shortKey] = short(field) }
        }
        return slots
    }()
}

/// Reads the fields of one card object leniently, the way the Braze SDKs do, and records a
/// warning for every value it had to coerce or ignore.
struct FieldReader {
    let object: [(key: String, value: JSONValue)]
    let file: String
    let index: Int
    /// The site's time zone, for a time written without an offset.
    let timeZone: SiteTimeZone
    var cardID: String?
    private(set) var diagnostics: [Diagnostic] = []

    /// The card's values by the slot of their key (see `KeySlots`): one pass over the object
    /// instead of a search for each of the thirty-odd fields a card is read for.
    private var values: [JSONValue?]

    init(object: [(key: String, value: JSONValue)], file: String, index: Int, timeZone: SiteTimeZone = .utc, keyStyle: KeyStyle = .long) {
        self.object = object
        self.file = file
        self.index = index
        self.timeZone = timeZone
        values = Array(repeating: nil, count: KeySlots.count)
        var bothStyles = false
        let twins = KeySlots.twins
        for (key, value) in object {
            if let slot = KeySlots.byKey[key] {
                values[slot] = value  // a repeated key: the last one counts, as in JavaScript
                let twin = twins[slot]
                if twin >= 0 && values[twin] != nil { bothStyles = true }
            } else {
                unknownKeys.append(key)
            }
        }
        if bothStyles { setAsideTheOtherStyle(keeping: keyStyle) }
    }

    /// Which of a field's two keys is read when a card gives both (`"tt"` and `"title"`): the
    /// style of the file's envelope, as Braze's clients read it.
    enum KeyStyle: Sendable, Hashable {
        /// News Feed files and every file that is not a sync: the long key.
        case long
        /// A Content Cards sync: the short key, the only one Braze's Web SDK reads there.
        case short
    }

    /// The keys given in both styles whose value is set aside, in the field table's order: the file says so
    /// once (see `CardLoader`), naming them.
    private(set) var ignoredKeys: [String] = []

    /// Sets aside, for each field given in both key styles, the key of the other style. A null
    /// counts as absent, so `"u": null` beside `"url": "…"` leaves the url read.
    private mutating func setAsideTheOtherStyle(keeping style: KeyStyle) {
        for field in CardField.written {
            let long = KeySlots.long(field), short = KeySlots.short(field)
            guard KeySlots.shortKeys[field.rawValue] != nil, let longValue = values[long], let shortValue = values[short] else { continue }
            if case .null = longValue { continue }
            if case .null = shortValue { continue }
            switch style {
            case .long:
                values[short] = nil
                ignoredKeys.append(KeySlots.shortKeys[field.rawValue]!)
            case .short:
                values[long] = nil
                ignoredKeys.append(KeySlots.longKeys[field.rawValue])
            }
        }
    }

    /// Keys that are not a card's, in file order. Real payloads have some (`"hhhh"`, `"Yc"`), and
    /// the SDKs ignore them; but a typo (`"titel"`) would lose a field silently.
    private var unknownKeys: [String] = []

    /// Whether the object is Braze's REST `content_card` object rather than a card of the SDKs.
    var isRESTContentCard: Bool {
        RESTContentCard.isREST(type: values[KeySlots.long(.type)], unknownKeys: unknownKeys, hasShortType: values[KeySlots.short(.type)] != nil,
            hasID: values[KeySlots.long(.id)] != nil)
    }

    /// Warns about each unknown key that is a small edit away from a known one.
    mutating func warnAboutMisspelledKeys() {
        for key in unknownKeys where key.count >= 3 {
            let suggestion = Diagnostic.suggestion(for: key, among: Self.suggestedKeys)
            if !suggestion.isEmpty { warn(key, "unknown key\(suggestion); ignored") }
        }
    }

    /// Known keys worth suggesting: a one-letter short key is an edit away from any other letter.
    private static let suggestedKeys = Set(KeySlots.byKey.keys.filter { $0.count >= 2 })

    /// The key present in the object for `field` (long key first), and its value; JSON null
    /// counts as absent, as it does for the SDKs.
    func lookup(_ field: CardField) -> (key: String, value: JSONValue)? {
        if let value = values[KeySlots.long(field)] {
            if case .null = value { return nil }
            return (KeySlots.longKeys[field.rawValue], value)
        }
        if let value = values[KeySlots.short(field)] {
            if case .null = value { return nil }
            return (KeySlots.shortKeys[field.rawValue]!, value)
        }
        return nil
    }

    func has(_ field: CardField) -> Bool { lookup(field) != nil }

    /// Present and not blank text: a blank `image` is no image, as it is for the SDKs (Android
    /// re-types a Classic card whose `i` is empty as a text announcement).
    func hasContent(_ field: CardField) -> Bool {
        guard let (_, value) = lookup(field) else { return false }
        if case .string(let text) = value { return !text.isBlank }
        return true
    }

    /// The key to name in a message about a missing field: the one of the card's key style.
    func keyName(_ field: CardField) -> String {
        let declaration = field.declaration
        guard let short = declaration.shortKey else { return declaration.key }
        let usesShortKeys = values[KeySlots.short(.type)] != nil || values[KeySlots.short(.created)] != nil
        return usesShortKeys ? short : declaration.key
    }

    /// A warning about this card; `summary`, for one whose words differ by card (its value), the
    /// words for all the cards of a file that get it, which a terminal shows once
    /// (`Diagnostic.summary`).
    mutating func warn(_ key: String?, _ message: String, summary: String? = nil) {
        var diagnostic = Diagnostic(.warning, file: file, cardIndex: index, cardID: cardID, field: key, message: message)
        diagnostic.summary = summary
        diagnostics.append(diagnostic)
    }

    mutating func note(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }

    /// Text; blank text counts as absent (the SDKs hide a blank title or description).
    mutating func string(_ field: CardField) -> String? {
        guard let (key, value) = lookup(field) else { return nil }
        switch value {
        case .string(let text):
            return text.isBlank ? nil : text
        case .number(let number, let integer):
            warn(key, "expected text, found a number; used as text")
            return JSONValue.text(of: number, integer: integer)
        default:
            warn(key, "expected text, found \(value.noun); ignored")
            return nil
        }
    }

    /// The words for every card of a file whose booleans are written as text, true or false.
    static let booleanAsText = "boolean written as text; read as what it says"

    mutating func bool(_ field: CardField) -> Bool? {
        guard let (key, value) = lookup(field) else { return nil }
        switch value {
        case .bool(let flag): return flag
        case .number(let number, _) where number == 0 || number == 1:
            return number == 1  // Braze's own docs show `"v": 0`, `"p": 1`.
        case .string(let text):
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "1", "yes":
                warn(key, "boolean written as text \(Diagnostic.quoted(text)); read as true", summary: Self.booleanAsText)
                return true
            case "false", "0", "no", "":
                warn(key, "boolean written as text \(Diagnostic.quoted(text)); read as false", summary: Self.booleanAsText)
                return false
            default: break
            }
        default: break
        }
        warn(key, "expected true or false, found \(value.noun); ignored")
        return nil
    }

    mutating func number(_ field: CardField) -> Double? {
        guard let (key, value) = lookup(field) else { return nil }
        switch value {
        case .number(let double, _):
            if double.isFinite { return double }
        case .string(let text):
            if let double = Double(text.trimmingCharacters(in: .whitespaces)), double.isFinite {
                warn(key, "number written as text \(Diagnostic.quoted(text)); read as \(Self.format(double))", summary: "number written as text; read as the number")
                return double
            }
        default: break
        }
        warn(key, "expected a number, found \(value.noun); ignored")
        return nil
    }

    mutating func integer(_ field: CardField) -> Int64? {
        if case .number(_, let integer?)? = lookup(field)?.value { return integer }
        guard let double = number(field) else { return nil }
        guard double.rounded() == double, abs(double) < 9.0e15 else {
            warn(lookup(field)?.key, "expected a whole number, found \(Self.format(double)); ignored", summary: "expected a whole number, found a fraction or one too large; ignored")
            return nil
        }
        return Int64(double)
    }

    /// Larger times, in seconds or milliseconds, are refused: beyond any calendar, and close to
    /// what `Int64` holds.
    static let largestTime = 9.0e15

    /// Unix seconds, from a number or an ISO 8601 date or date-time (see `WrittenTime`; a time
    /// without an offset is on the site's clocks). 13-digit numbers are milliseconds (some
    /// generators write them), a fraction is rounded down (iOS keeps timestamps as doubles, and
    /// exports write `1699500000.75`), and a negative number means "never", as `-1` does on the
    /// wire. A value that is no time gets one warning, which ends with `consequence`.
    mutating func timestamp(_ field: CardField, unreadable consequence: String = "ignored") -> Int64? {
        guard let (key, value) = lookup(field) else { return nil }
        var seconds: Int64
        switch value {
        case .number(_, let integer?):
            seconds = integer  // the usual case
        case .string(let text):
            if let written = WrittenTime(iso8601: text) {
                seconds = written.moment(in: timeZone)
                guard seconds >= 0 else {
                    warn(key, "\(Diagnostic.quoted(text)) is before 1970, the earliest time a card can hold; \(consequence)", summary: "the value is before 1970, the earliest time a card can hold; \(consequence)")
                    return nil
                }
            } else if Double(text.trimmingCharacters(in: .whitespaces)) != nil, let number = number(field) {
                guard let whole = wholeSeconds(number, key) else { return nil }
                seconds = whole
            } else {
                warn(key, "\(Diagnostic.quoted(text)) is not a time: expected \(WrittenTime.acceptedForms); \(consequence)", summary: "the value is not a time: expected \(WrittenTime.acceptedForms); \(consequence)")
                return nil
            }
        case .number:
            guard let number = number(field), let whole = wholeSeconds(number, key) else { return nil }
            seconds = whole
        default:
            warn(key, "expected a time (\(WrittenTime.acceptedForms)), found \(value.noun); \(consequence)")
            return nil
        }
        if seconds >= 1_000_000_000_000 { seconds /= 1000 }
        guard seconds >= 0 else { return nil }
        // RFC 3339 (the feeds' dates, `datetime`) has four-digit years.
        if seconds > Self.latestTime {
            warn(key, "\(seconds) is after 9999-12-31T23:59:59Z, the last time a feed can give; read as that time", summary: "the value is after 9999-12-31T23:59:59Z, the last time a feed can give; read as that time")
            seconds = Self.latestTime
        }
        return seconds
    }

    /// A number of seconds (or milliseconds) rounded down, or nil with a warning when it is
    /// beyond any calendar.
    private mutating func wholeSeconds(_ number: Double, _ key: String) -> Int64? {
        guard abs(number) < Self.largestTime else {
            warn(key, "\(Self.format(number)) is too large for a time; ignored", summary: "the value is too large for a time; ignored")
            return nil
        }
        return Int64(number.rounded(.down))
    }

    /// 9999-12-31T23:59:59Z. Times before 1970 (negative) mean "never" on the wire, so the
    /// earliest time a card can hold is 1970, well inside RFC 3339's year 0.
    static let latestTime: Int64 = 253_402_300_799

    mutating func stringList(_ field: CardField) -> [String] {
        guard let (key, value) = lookup(field) else { return [] }
        switch value {
        case .array(let items):
            var strings: [String] = []
            for item in items {
                if case .string(let text) = item { strings.append(text) } else {
                    warn(key, "expected a list of text, found \(item.noun) in it; that item is ignored")
                }
            }
            return strings
        case .string(let text):
            warn(key, "expected a list, found text; read as a list of one")
            return [text]
        default:
            warn(key, "expected a list of text, found \(value.noun); ignored")
            return []
        }
    }

    /// A flat object of text values, sorted by key. Numbers and booleans are kept as text with a
    /// warning; nested values are dropped (Braze discourages them and its SDKs drop them).
    mutating func stringMap(_ field: CardField) -> [Card.Extra] {
        guard let (key, value) = lookup(field) else { return [] }
        guard case .object(let object) = value else {
            warn(key, "expected an object of text values, found \(value.noun); ignored")
            return []
        }
        var pairs: [Card.Extra] = []
        var seen = Set<String>()
        // Sorted by key; a repeated key's last value counts.
        for (name, item) in object.reversed() where seen.insert(name).inserted {
            switch item {
            case .string(let text): pairs.append(Card.Extra(key: name, value: text))
            case .number(let number, let integer):
                warn("\(key).\(name)", "expected text, found a number; used as text")
                pairs.append(Card.Extra(key: name, value: JSONValue.text(of: number, integer: integer)))
            case .bool(let flag):
                warn("\(key).\(name)", "expected text, found a boolean; used as text")
                pairs.append(Card.Extra(key: name, value: flag ? "true" : "false"))
            case .null: break
            case let other: warn("\(key).\(name)", "expected text, found \(other.noun); ignored")
            }
        }
        return pairs.sorted { $0.key < $1.key }
    }

    static func format(_ double: Double) -> String { JSONValue.text(of: double, integer: nil) }
}

extension String {
    /// Empty or only white space (the SDKs hide a blank title or description). Faster than
    /// Foundation's trimming, which this runs for every text field of every card.
    var isBlank: Bool {
        if let first = utf8.first, first > 0x20, first < 0x7F { return false }  // the usual case: a visible ASCII character first
        return unicodeScalars.allSatisfy(\.properties.isWhitespace)
    }
}
