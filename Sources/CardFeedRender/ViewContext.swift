import CardFeedMustache
import CardFeedModel

/// The views a name is looked up in at one place of a template, as Mustache's context stack
/// holds them: the template's own view first, then one for each section around the place
/// whose value has names. An open scope (inside `{{#extras}}` or `{{#strings}}`) answers any
/// name: the site chose them.
struct ViewContext: Equatable {
    /// Outermost first; nil for an open scope.
    private(set) var scopes: [ViewSchema?]
    /// Inside the page's `{{#cards}}`, where each card's HTML is written.
    private(set) var inCards = false
    /// The scopes are every view there is (`anyView`), not the ones around a known place.
    private var everyView = false

    init(_ scopes: [ViewSchema?]) { self.scopes = scopes }

    static func == (a: Self, b: Self) -> Bool { a.scopes.map { $0?.name } == b.scopes.map { $0?.name } && a.inCards == b.inCards }

    /// Every view any template is rendered over, with the views they hold: where a template's
    /// context cannot be known (a template only a dynamic name includes, a block given to a
    /// parent, which renders where the parent's block stands), a name any view has may be meant.
    static let anyView: ViewContext = {
        var schemas: [ViewSchema] = []
        var work = TemplateLinter.roots.keys.sorted().compactMap { TemplateLinter.roots[$0] }
        while let schema = work.popLast() {
            guard !schemas.contains(where: { $0.name == schema.name }) else { continue }
            schemas.append(schema)
            work += schema.fields.compactMap { $0.kind.schema }
        }
        var context = ViewContext(schemas)
        context.everyView = true
        return context
    }()

    /// The context inside the sections `sections` (outermost first).
    func pushing(_ sections: [String]) -> ViewContext {
        var context = self
        for section in sections {
            switch context.kind(of: section) {
            case .view(let schema)?, .list(let schema)?: context.scopes.append(schema)
            case .open?: context.scopes.append(nil)
            case .cards?: context.inCards = true  // each item is a card's HTML: no names
            default: break  // a flag or text pushes nothing with names; an unknown name is reported where it stands
            }
        }
        return context
    }

    /// What a dotted name reaches: its first part through the scopes, innermost first, then
    /// each further part in the value before it. Nil when it reaches nothing.
    func kind(of name: String) -> FieldKind? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard var kind = firstKind(parts[0]) else { return nil }
        for part in parts.dropFirst() {
            if case .open = kind { return .open }
            // Mustache looks a dotted name's parts up in one value, never in a list's items.
            guard case .view(let schema) = kind, let next = schema.kind(of: part) else { return nil }
            kind = next
        }
        return kind
    }

    private func firstKind(_ name: String) -> FieldKind? {
        for scope in scopes.reversed() {
            guard let scope else { return .open }
            if let kind = scope.kind(of: name) { return kind }
        }
        return nil
    }

    /// Why `tag` renders as nothing here, if it does.
    func problem(with tag: MustacheTag) -> String? {
        let sigil = tag.kind == .section ? "#" : tag.kind == .inverted ? "^" : tag.kind == .raw ? "&" : ""
        let parts = tag.name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard var kind = firstKind(parts[0]) else {
            let here = Set(scopes.compactMap { $0?.names }.joined())
            if everyView {
                // Where the place's view is not known (a block given to the template it extends),
                // naming each view a template can have would be a list of them all.
                return "{{\(sigil)\(tag.name)}} names \(Diagnostic.quoted(parts[0])), which no view has, so it renders as nothing\(Diagnostic.suggestion(for: parts[0], among: here))"
            }
            var views: [String] = []
            for name in scopes.reversed().compactMap({ $0?.name }) where !views.contains(name) { views.append(name) }
            let owners = views.map { "the \($0)" }.joined(separator: " or ")
            return "{{\(sigil)\(tag.name)}} names \(Diagnostic.quoted(parts[0])), which \(owners) does not have, so it renders as nothing\(Diagnostic.suggestion(for: parts[0], among: here))\(elsewhere(parts[0]))"
        }
        var owner = parts[0]
        for part in parts.dropFirst() {
            if case .open = kind { return nil }
            if case .list = kind {
                return "{{\(sigil)\(tag.name)}}: \(Diagnostic.quoted(owner)) is a list, whose items a dotted name does not reach, so it renders as nothing; use {{#\(owner)}}{{\(part)}}{{/\(owner)}}"
            }
            guard let schema = kind.schema else {
                return "{{\(sigil)\(tag.name)}}: \(Diagnostic.quoted(owner)) has no fields, so it renders as nothing"
            }
            guard let next = schema.kind(of: part) else {
                let known = schema.names
                return "{{\(sigil)\(tag.name)}} names \(Diagnostic.quoted(part)) of \(Diagnostic.quoted(owner)), which has only \(known.joined(separator: ", ")), so it renders as nothing\(Diagnostic.suggestion(for: part, among: Set(known)))"
            }
            kind = next
            owner = part
        }
        return nil
    }

    /// "; it is a name of the page, which a card template does not see", when another view a
    /// template is rendered over has the name: the likely mix-up.
    private func elsewhere(_ name: String) -> String {
        guard let own = scopes.first??.name else { return "" }
        let others = TemplateLinter.anyRoot.compactMap { $0.scopes.first ?? nil }.filter { $0.name != own && $0.kind(of: name) != nil }
        guard let other = others.first else { return "" }
        return "; it is a name of the \(other.name), which a \(own) template does not see"
    }
}
