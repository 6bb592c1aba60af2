import CardFeedModel
/// A rule of cardfeed.yml that changes cards before they are shown (Braze's
/// `populateContentCards`): it matches cards by type, category, id or extras, and sets fields,
/// hides them, pins them or moves them to a category. Rules apply in file order.
public struct CardRule: Sendable {
    public var name: String
    /// Where the rule is written: the file, and the line and column of its first key.
    public var file: String
    public var line: Int?
    public var column: Int?
    /// For reports: "cardfeed.yml:12".
    public var location: String { line.map { "\(file):\($0)" } ?? file }

    // What it matches; every condition given must hold, an empty list matches anything.
    public var types: [CardType] = []
    /// Category names; "uncategorized" matches cards without a category.
    public var categories: [String] = []
    /// Ids, each may end or start with `*`.
    public var ids: [String] = []
    public var extras: [(key: String, value: String)] = []

    // What it does.
    public var set: [(field: CardField, value: Assignment)] = []
    public var hide = false
    public var pin: Bool?
    /// Replaces the card's categories; an empty list moves it to uncategorized.
    public var moveTo: [FeedCategory]?
    /// The placements the cards it matches are left out of (`keep_out_of`); the feeds still show them.
    public var keepOutOf: [String] = []

    public init(name: String, file: String, line: Int? = nil, column: Int? = nil) {
        self.name = name
        self.file = file
        self.line = line
        self.column = column
    }

    /// What `set:` gives a field: a value of the field's own kind, read and checked when
    /// cardfeed.yml is loaded, so that applying it to a card cannot fail. Links and images are
    /// checked again for each card, as they are in card files.
    public enum Assignment: Sendable {
        case text(String)
        case link(String)
        case image(String)
        case flag(Bool)
        case number(Double?)
        case integer(Int64)
        /// Unix seconds, or none (`-1`, never).
        case seconds(Int64?)
        /// An ISO 8601 date or date-time (`expires_at: 2026-12-31`), read on the site's clocks.
        case time(WrittenTime)
        case format(DescriptionFormat)
    }

    /// Why `number` cannot be set on `field`, or nil: `.nan`, `.inf` and times beyond what a
    /// timestamp can hold are refused here, so that applying a rule cannot fail.
    static func problem(setting field: CardField, to number: Double) -> String? {
        guard number.isFinite else { return "\(number) is not a number a card can hold; give a finite number" }
        if case .time = field.declaration.value, abs(number) >= FieldReader.largestTime {
            return "\(number) is too large for a time (Unix seconds; -1 for never)"
        }
        return nil
    }

    /// What the rule does to a card it matches, for people: "pins it; sets title, url".
    public var changes: String {
        var parts: [String] = []
        if hide { parts.append("hides it") }
        if let pin { parts.append(pin ? "pins it" : "unpins it") }
        if let moveTo { parts.append(moveTo.isEmpty ? "moves it to uncategorized" : "moves it to " + moveTo.map(\.rawValue).joined(separator: ", ")) }
        if !set.isEmpty { parts.append("sets " + set.map(\.field.declaration.key).joined(separator: ", ")) }
        if !keepOutOf.isEmpty { parts.append("keeps it out of the placement\(keepOutOf.count == 1 ? "" : "s") " + keepOutOf.joined(separator: ", ")) }
        return parts.isEmpty ? "changes nothing" : parts.joined(separator: "; ")
    }

    package func matches(_ card: Card) -> Bool {
        if !types.isEmpty && !types.contains(card.type) { return false }
        if !categories.isEmpty {
            let names = card.categories.isEmpty ? ["uncategorized"] : card.categories.map(\.rawValue)
            if !categories.contains(where: names.contains) { return false }
        }
        if !ids.isEmpty && !ids.contains(where: { Self.glob($0, matches: card.id) }) { return false }
        for (key, value) in extras where !card.extras.contains(where: { $0.key == key && $0.value == value }) { return false }
        return true
    }

    static func glob(_ pattern: String, matches text: String) -> Bool {
        switch (pattern.hasPrefix("*"), pattern.hasSuffix("*")) {
        case (true, true) where pattern.count >= 2: return text.contains(pattern.dropFirst().dropLast())
        case (true, _): return text.hasSuffix(pattern.dropFirst())
        case (_, true): return text.hasPrefix(pattern.dropLast())
        default: return text == pattern
        }
    }
}
