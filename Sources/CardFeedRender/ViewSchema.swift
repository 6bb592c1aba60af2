import CardFeedLoad
import CardFeedMustache

/// The names one view gives templates, each with what it holds. A view declares it once, with
/// its `Key`: the cases are the names, and `kind` (a switch the compiler makes exhaustive) says
/// what each holds, so a name added to a view needs its kind and nothing else. The linter
/// checks every template against the schemas of the views it is rendered over, and the tests
/// hold the real views and docs/templates.md to them.
struct ViewSchema: Sendable {
    /// How messages call the view: "card", "page", "link"...
    let name: String
    /// In the order of the view's `Key`.
    let fields: [(name: String, kind: FieldKind)]

    init<Key: ViewKey>(_ name: String, _: Key.Type) {
        self.name = name
        fields = Key.allCases.map { ($0.rawValue, $0.kind) }
    }

    /// A view with the names of `Shared` (which another view has too: see `PageShell`) and its own.
    init<Shared: ViewKey, Key: ViewKey>(_ name: String, _: Shared.Type, _: Key.Type) {
        self.name = name
        fields = Shared.allCases.map { ($0.rawValue, $0.kind) } + Key.allCases.map { ($0.rawValue, $0.kind) }
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

/// A view's `Key`: its names, each with its kind.
protocol ViewKey: RawRepresentable<String>, CaseIterable, Sendable {
    var kind: FieldKind { get }
}

extension ViewKey {
    /// For a `Key` whose names are not its cases' own (a view's names and a table's, as
    /// `CardView.Key`): the case of that name.
    init?(rawValue: String) {
        guard let key = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = key
    }
}


