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
    /// The card's index in its file, and its id when it has one.
    public var cardIndex: Int?
    public var cardID: String?
    public var field: String?
    public var message: String

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

    /// `site/cards/a.json: card 2 (id "x"): field "image": message`, or `file:3:7: message`.
    public var description: String {
        var text = file
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        if let cardIndex {
            text += ": card \(cardIndex)"
            if let cardID { text += " (id \(Self.quoted(cardID)))" }
        }
        if let field { text += ": field \(Self.quoted(field))" }
        return text + ": " + message
    }

    /// Quotes untrusted text for a terminal: control characters escaped, long values cut.
    static func quoted(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars.prefix(80) {
            switch scalar {
            case "\"", "\\": shown += "\\\(scalar)"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: shown += "\\u{\(String(scalar.value, radix: 16))}"
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

    public mutating func append(_ diagnostic: Diagnostic) { all.append(diagnostic) }
    public mutating func append(contentsOf other: Diagnostics) { all += other.all }

    public var errors: [Diagnostic] { all.filter { $0.severity == .error } }
    public var warnings: [Diagnostic] { all.filter { $0.severity == .warning } }
    public var hasErrors: Bool { all.contains { $0.severity == .error } }

    /// With `--strict`, every warning counts as an error.
    public func escalated(strict: Bool) -> Diagnostics {
        guard strict else { return self }
        var copy = self
        copy.all = all.map { var d = $0; d.severity = .error; return d }
        return copy
    }
}
