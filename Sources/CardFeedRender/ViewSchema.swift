import CardFeedLoad
import CardFeedMustache

/// The names one view gives templates, each with what it holds and what the docs say of it, as
/// the view's `ViewNames` declares them. The linter checks every template against the schemas of
/// the views it is rendered over, and docs/templates.md's "What templates see" is made from them.
struct ViewSchema: Sendable {
    /// How messages call the view: "card", "page", "link"...
    let name: String
    /// In the order they are declared.
    let fields: [(name: String, kind: FieldKind, help: String)]
    /// The view whose names this one has first, as its own (a page has those of `PageShell`).
    let shared: [ViewSchema]

    init(_ name: String, _ fields: [(name: String, kind: FieldKind, help: String)], shared: ViewSchema? = nil) {
        self.name = name
        self.fields = (shared?.fields ?? []) + fields
        self.shared = shared.map { [$0] } ?? []
    }

    func kind(of field: String) -> FieldKind? { fields.first { $0.name == field }?.kind }

    var names: [String] { fields.map(\.name) }
}

/// What a name of a view holds.
indirect enum FieldKind: Sendable {
    /// Text, written escaped by `{{name}}`; empty or missing renders as nothing.
    case text
    /// HTML made by CardFeed, written as it is by `{{{name}}}`.
    case html
    /// True or false, for `{{#name}}` and `{{^name}}`.
    case flag
    /// A list of texts, each written by `{{.}}` inside `{{#name}}`.
    case texts
    /// One value with names of its own (`{{name.field}}`, or the field inside `{{#name}}`).
    case view(ViewSchema)
    /// A list of such values, each in turn inside `{{#name}}`.
    case list(ViewSchema)
    /// The page's cards: inside `{{#cards}}`, `{{{.}}}` is each card's HTML, made by the card
    /// templates; nothing with names is added to what the page's names reach.
    case cards
    /// Names the site itself chooses (its extras, its strings): any name may follow.
    case open

    /// The schema names inside `{{#name}}` or after `name.` reach, if the value has names.
    var schema: ViewSchema? {
        switch self {
        case .view(let schema), .list(let schema): schema
        default: nil
        }
    }
}
