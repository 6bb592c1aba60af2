/// Templates by name, which partials and parents name each other by, and the way text is
/// escaped for `{{name}}`.
public struct MustacheLibrary: Sendable {
    /// Appends `text` (UTF-8) to `out`, escaped for where templates put it.
    public typealias Escape = @Sendable (_ text: Span<UInt8>, _ out: inout MustacheBytes) -> Void

    /// By the number of their name (`MustacheName.id`): an array, not a dictionary, since a card
    /// includes a partial and a parent every time it renders.
    private var templates: [MustacheTemplate?] = []
    /// The same programs as the renderer walks them (the templates above keep them alive).
    private(set) var programs: [Program.Contents?] = []
    private(set) var escape: Escape

    /// Partials and parents may include each other this deep, sections within them counted:
    /// deeper is an error, which names the templates (checked before going deeper, so that no
    /// template can overflow the renderer's stack).
    public static let maximumDepth = 200

    /// The engine knows no output language: its user says how `{{name}}` escapes text.
    public init(escape: @escaping Escape) {
        self.escape = escape
    }

    /// The same templates, with `{{name}}` escaped by `escape`: for templates that write
    /// another language than the rest (XML beside HTML).
    public func escaping(with escape: @escaping Escape) -> MustacheLibrary {
        var library = self
        library.escape = escape
        return library
    }

    public mutating func register(_ template: MustacheTemplate, named name: String) {
        let id = MustacheName(name).id
        if id >= templates.count {
            templates += [MustacheTemplate?](repeating: nil, count: id + 1 - templates.count)
            programs += [Program.Contents?](repeating: nil, count: id + 1 - programs.count)
        }
        templates[id] = template
        programs[id] = template.program.contents
    }

    /// The registered program whose steps `contents` are, for a failed render.
    func program(of contents: Program.Contents) -> Program? {
        templates.lazy.compactMap { $0?.program }.first { contents.belong(to: $0) }
    }

    /// The name of a registered template, to render it by; nil when there is none.
    public func name(of template: String) -> MustacheName? {
        guard let name = Interner.shared.existing(template), name.id < templates.count, templates[name.id] != nil else { return nil }
        return name
    }

    /// Renders the registered template `name` with `context` at the root of the context stack;
    /// `capacity` is a guess at the output's size.
    public func render(
        _ name: MustacheName, _ context: MustacheValue, capacity: Int = 0, budget: MustacheBudget = .unlimited
    ) throws(MustacheRenderError) -> MustacheOutput {
        guard name.id < programs.count, let program = programs[name.id] else { return MustacheOutput(bytes: [], holes: []) }
        var out = MustacheBytes(capacity: capacity)
        let holes = try render(program, owner: nil, context, name: name, budget: budget, onto: &out)
        return MustacheOutput(bytes: out.array, holes: holes)
    }

    /// Renders the registered template `name` onto the end of `out`, for a caller that reuses
    /// one buffer for many renders (a thread rendering cards: fresh memory for every card was
    /// slower to write than the copy out of a warm buffer). Returns the holes left in `out`.
    public func render(
        _ name: MustacheName, _ context: MustacheValue, budget: MustacheBudget = .unlimited, onto out: inout MustacheBytes
    ) throws(MustacheRenderError) -> [MustacheHole] {
        guard name.id < programs.count, let program = programs[name.id] else { return [] }
        return try render(program, owner: nil, context, name: name, budget: budget, onto: &out)
    }

    /// Renders `template`, registered or not, with `context` at the root of the context stack.
    /// `name` names it in errors.
    public func render(
        _ template: MustacheTemplate, _ context: MustacheValue, name: String, capacity: Int = 0
    ) throws(MustacheRenderError) -> MustacheOutput {
        var out = MustacheBytes(capacity: capacity)
        let holes = try render(template.program.contents, owner: template.program, context, name: MustacheName(name), budget: .unlimited, onto: &out)
        return MustacheOutput(bytes: out.array, holes: holes)
    }

    /// The one place a render starts. `owner` keeps an unregistered program alive for the holes
    /// left in the output.
    private func render(
        _ program: Program.Contents, owner: Program?, _ context: MustacheValue, name: MustacheName, budget: MustacheBudget,
        onto out: inout MustacheBytes
    ) throws(MustacheRenderError) -> [MustacheHole] {
        var renderer = MustacheRenderer(library: self, owner: owner, stack: [context], trail: [name], budget: budget, capacity: 0)
        swap(&renderer.out, &out)
        renderer.byteLimit = budget.bytes > Int.max - renderer.out.count ? Int.max : renderer.out.count + budget.bytes
        defer { swap(&renderer.out, &out) }
        do {
            try renderer.render(program, program.all)
        } catch {
            throw renderer.located(error, in: program)
        }
        return renderer.holes
    }
}

/// A rendered template: its bytes, and the holes that sections over a `deferredList` left in
/// them, in order, for the caller to fill.
public struct MustacheOutput: Sendable {
    public var bytes: [UInt8]
    public var holes: [MustacheHole]

    public init(bytes: [UInt8], holes: [MustacheHole]) {
        self.bytes = bytes
        self.holes = holes
    }

    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Where a section over a `deferredList` stood: at `offset` of the output, `count` items, each
/// rendered by the section's content when the caller has it.
public struct MustacheHole: Sendable {
    public let offset: Int
    public let count: Int
    /// The section's content: steps `body` of `program`.
    let program: Program.Contents
    let body: Range<Int>
    let stack: [MustacheValue]
    let overrides: [Overrides]
    let indentation: [Literal]
    let trail: [MustacheName]
    let budget: MustacheBudget
    /// The library holds the programs the hole's content may enter; `owner`, the hole's own
    /// when it was not registered.
    let library: MustacheLibrary
    let owner: Program?

    /// The text after each item when the section writes each item as it is and then fixed text
    /// (`{{#cards}}{{{.}}}\n{{/cards}}`): the caller can then copy items without rendering.
    public var rawItemSuffix: [UInt8]? {
        guard indentation.isEmpty, !body.isEmpty, case .variable(let name, escaped: false) = program.steps[body.lowerBound], name.isDot else { return nil }
        switch body.count {
        case 1: return []
        case 2: if case .text(let text) = program.steps[body.lowerBound + 1] { return text.array } else { return nil }
        default: return nil
        }
    }

    /// Appends the section's content for one item to `out`, within the budget of the render
    /// that left the hole (each item has the whole budget).
    public func render(item: MustacheValue, into out: inout [UInt8]) throws(MustacheRenderError) {
        var renderer = MustacheRenderer(library: library, owner: owner, stack: stack + [item], trail: trail, budget: budget)
        renderer.overrides = overrides
        renderer.indentation = indentation
        do {
            try renderer.render(program, body)
        } catch {
            // Not placed by a tag of the content (it failed in the section's text): at the
            // section's `{{#name}}` tag, the step before its content.
            throw renderer.located(renderer.located(error, at: body.lowerBound - 1, in: program), in: program)
        }
        renderer.out.copy(into: &out)
    }
}

/// What one render may do before it stops with an error (`MustacheRenderError.limit`): without a
/// bound, 31 partials of 35 bytes, each including the one before twice, wrote a gigabyte.
public struct MustacheBudget: Sendable {
    /// Bytes it may write.
    public var bytes: Int
    /// Steps it may take: each piece of text, name, section, partial, parent and block it passes,
    /// once for every time it passes it (sections over lists and partials included), so that
    /// templates that write nothing cannot loop for long either.
    public var steps: Int

    public init(bytes: Int, steps: Int) {
        self.bytes = bytes
        self.steps = steps
    }

    public static let unlimited = MustacheBudget(bytes: .max, steps: .max)
}
