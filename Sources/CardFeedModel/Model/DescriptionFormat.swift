/// How a card's title and description are shown: `descriptions` in cardfeed.yml for the site,
/// the extra `cardfeed_descriptions` for one card, `set: {descriptions: …}` in a rule.
public enum DescriptionFormat: String, Sendable, Hashable, CaseIterable, Decodable {
    /// The description is Markdown with a little HTML; a newline is a line break.
    case markdown
    /// Title and description are plain text, shown as Braze's SDKs show them: every character
    /// as typed, line breaks, tabs and runs of spaces kept, HTML shown as text.
    case text

    /// The extras key that sets one card's format.
    public static let extra = "cardfeed_descriptions"

    /// The accepted values, for messages: "markdown or text".
    package static var choices: String { allCases.map(\.rawValue).joined(separator: " or ") }
}
