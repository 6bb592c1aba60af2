import CardFeedMustache

/// What one kind of value shows templates (a card, a link, a page...), declared once: its
/// `names`, each one line with its help text and how its value is read, from which the lookup,
/// the linter's schema and docs/templates.md's tables all come. A name added there is one line.
protocol TemplateModel: Sendable {
    static var names: ViewNames<Self> { get }
    /// A requirement with a default (below) rather than a function of the extension alone, so
    /// that each model's conformance has its own copy, compiled for its type: `TemplateObject`,
    /// generic, would otherwise read each table through generic code, looking its types up at
    /// run time on every name (a card's template reads some sixty).
    static func value(of model: Self, for name: MustacheName) -> MustacheValue?
}

extension TemplateModel {
    static func value(of model: Self, for name: MustacheName) -> MustacheValue? { names.value(of: model, for: name) }

    /// The names, for the linter and the docs.
    static var schema: ViewSchema { names.schema }
}

/// A model as Mustache holds it: by reference, so that the context stack does not copy it, and
/// answering each name from its type's table.
final class TemplateObject<Model: TemplateModel>: MustacheObject {
    let model: Model

    init(_ model: Model) { self.model = model }

    func value(for name: MustacheName) -> MustacheValue? { Model.value(of: model, for: name) }
}

extension MustacheValue {
    static func view<Model: TemplateModel>(_ model: Model) -> MustacheValue { .object(TemplateObject(model)) }
    static func views<Model: TemplateModel>(_ models: [Model]) -> MustacheValue { .list(models.map { .object(TemplateObject($0)) }) }
}

/// One name of a view: `.text("href", "The link's address.") { $0.href }`. The kind a name holds
/// follows from how it is declared (`.text`, `.flag`, `.view`...), so the linter's schema and the
/// value agree. Each read is a closure that captures nothing: the table is shared by both
/// rendering threads, and a captured context would be retained on every lookup.
struct ViewName<Model>: Sendable {
    let name: String
    let kind: FieldKind
    /// What docs/templates.md says of it.
    let help: String
    let read: Read

    enum Read: Sendable {
        case text(@Sendable (Model) -> String?)
        case number(@Sendable (Model) -> Int?)
        case flag(@Sendable (Model) -> Bool)
        case value(@Sendable (Model) -> MustacheValue?)
        /// For names made from a table (a card field, a feed's file): the read is given the
        /// number it was declared with, rather than capturing it.
        case numbered(Int, @Sendable (Model, Int) -> MustacheValue?)
        /// A name of another view the model holds (`ViewNames`' `shared:`), asked by its name.
        case named(@Sendable (Model, MustacheName) -> MustacheValue?)
    }

    /// Text, escaped by `{{name}}`; nil is no such field, so `{{#name}}` skips it.
    static func text(_ name: String, _ help: String, _ read: @escaping @Sendable (Model) -> String?) -> Self {
        Self(name: name, kind: .text, help: help, read: .text(read))
    }

    /// HTML made by CardFeed, for `{{{name}}}`.
    static func html(_ name: String, _ help: String, _ read: @escaping @Sendable (Model) -> String?) -> Self {
        Self(name: name, kind: .html, help: help, read: .text(read))
    }

    /// A whole number, written as text.
    static func number(_ name: String, _ help: String, _ read: @escaping @Sendable (Model) -> Int?) -> Self {
        Self(name: name, kind: .text, help: help, read: .number(read))
    }

    static func flag(_ name: String, _ help: String, _ read: @escaping @Sendable (Model) -> Bool) -> Self {
        Self(name: name, kind: .flag, help: help, read: .flag(read))
    }

    /// One value of `view`'s names (`.view(...)`), or nil.
    static func view<View: TemplateModel>(_ name: String, _: View.Type, _ help: String, _ read: @escaping @Sendable (Model) -> MustacheValue?) -> Self {
        Self(name: name, kind: .view(View.schema), help: help, read: .value(read))
    }

    /// A list of values of `view`'s names (`.views(...)`).
    static func list<View: TemplateModel>(_ name: String, _: View.Type, _ help: String, _ read: @escaping @Sendable (Model) -> MustacheValue?) -> Self {
        Self(name: name, kind: .list(View.schema), help: help, read: .value(read))
    }

    /// A name made from a table (a card field, a feed's file), read with its `number` there.
    static func numbered(_ name: String, _ kind: FieldKind, _ help: String, _ number: Int, _ read: @escaping @Sendable (Model, Int) -> MustacheValue?) -> Self {
        Self(name: name, kind: kind, help: help, read: .numbered(number, read))
    }

    /// Any other kind (`.texts`, `.open`, `.cards`), read as a template value.
    static func value(_ name: String, _ kind: FieldKind, _ help: String, _ read: @escaping @Sendable (Model) -> MustacheValue?) -> Self {
        Self(name: name, kind: kind, help: help, read: .value(read))
    }
}

/// The names of one view type, in order: its schema, and what each name reads, by the name's
/// number. Laid out once and never freed, so that copying it (every lookup reads the type's
/// table) counts no reference.
struct ViewNames<Model>: Sendable {
    private let reads: MustacheFields<ViewName<Model>.Read>
    private let declared: MustacheConstant<ViewSchema>

    /// `view`: how messages and the docs call it ("card", "link").
    init(_ view: String, _ names: [ViewName<Model>]) {
        reads = MustacheFields(names.map { ($0.name, $0.read) })
        declared = MustacheConstant(ViewSchema(view, names.map { ($0.name, $0.kind, $0.help) }))
    }

    /// A view with the names of `Shared` (which another view has too: see `PageShell`) and its
    /// own: `shared` answers those, as `{ $0.shell.value(for: $1) }`, a closure that captures
    /// nothing, over the part held by reference, asked through its `TemplateObject`: a part held
    /// by value was copied on each name, and so was the model read out of its object
    /// (`PageShell.value(of: $0.shell.model, for: $1)` retained and released each of its fields,
    /// 117,000 pages times the names they read).
    init<Shared: TemplateModel>(
        _ view: String, shared: Shared.Type, _ read: @escaping @Sendable (Model, MustacheName) -> MustacheValue?, _ names: [ViewName<Model>]
    ) {
        let lifted = Shared.schema.fields.map { ($0.name, ViewName<Model>.Read.named(read)) }
        reads = MustacheFields(lifted + names.map { ($0.name, $0.read) })
        declared = MustacheConstant(ViewSchema(view, names.map { ($0.name, $0.kind, $0.help) }, shared: Shared.schema))
    }

    var schema: ViewSchema { declared.value }

    func value(of model: Model, for name: MustacheName) -> MustacheValue? {
        switch reads[name] {
        case .text(let read)?: read(model).map(MustacheValue.text)
        case .number(let read)?: read(model).map(MustacheValue.int)
        case .flag(let read)?: .bool(read(model))
        case .value(let read)?: read(model)
        case .numbered(let number, let read)?: read(model, number)
        case .named(let read)?: read(model, name)
        case nil: nil
        }
    }
}
