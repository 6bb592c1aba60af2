/// Renders nodes by appending bytes: text is copied, names are looked up through the context
/// stack (innermost first), and a parent's blocks are filled from the overrides of the
/// templates that extend it (the outermost, most derived, first).
struct MustacheRenderer: ~Copyable {
    let library: MustacheLibrary
    /// The program rendered when it is not the library's, for the holes it leaves.
    let owner: Program?
    var out: MustacheBytes
    /// The context stack, innermost last.
    private(set) var stack: [MustacheValue] = []
    /// The blocks each enclosing parent tag passes down, outermost first (a few each: a list
    /// is searched faster than a dictionary is hashed).
    var overrides: [Overrides] = []
    /// Put at the start of each line of template text: a standalone partial's indentation, say.
    /// The pieces, outermost first, each the literal text of a template (none empty), so that
    /// entering a partial copies no bytes.
    var indentation: [Literal] = []
    /// The next template text starts a line (and gets `indentation` first).
    var pending = false
    /// The templates being rendered, outermost first, for errors.
    var trail: [MustacheName] = []
    var holes: [MustacheHole] = []
    /// Sections, partials, parents and blocks entered and not yet left.
    private var depth = 0
    let budget: MustacheBudget
    /// The steps the budget has left.
    private var stepsLeft: Int
    /// How long `out` may grow: the budget's bytes, from where this render started writing.
    var byteLimit: Int

    /// `stack`, outermost first, is the context; `capacity` a guess at the output's size.
    init(library: MustacheLibrary, owner: Program?, stack: [MustacheValue], trail: [MustacheName], budget: MustacheBudget, capacity: Int = 256) {
        self.library = library
        self.budget = budget
        stepsLeft = budget.steps
        byteLimit = budget.bytes
        out = MustacheBytes(capacity: capacity)
        self.owner = owner
        // Room for the usual depth at once: growing these one step at a time allocated some
        // ten times a card.
        self.stack.reserveCapacity(max(8, stack.count + 4))
        self.trail.reserveCapacity(max(4, trail.count + 2))
        self.trail += trail
        for value in stack { push(value) }
    }

    private mutating func push(_ value: MustacheValue) {
        stack.append(value)
    }

    private mutating func pop() {
        stack.removeLast()
    }

    /// Renders the steps `range` of `program`. An error from a step gets the place of the step's
    /// tag on its way out (`located`): only a failed render looks it up.
    mutating func render(_ program: Program.Contents, _ range: Range<Int>) throws(MustacheRenderError) {
        let steps = program.steps
        var index = range.lowerBound
        do throws(MustacheRenderError) {
            while index < range.upperBound {
                stepsLeft -= 1
                if stepsLeft < 0 || out.count > byteLimit { throw overBudget() }
                switch steps[index] {
                case .text(let text):
                    emit(text)
                    index += 1
                case .variable(let name, let escaped):
                    startLine()
                    write(resolve(name, in: program), escaped: escaped)
                    index += 1
                case .section(let name, let end, let inverted, let openStandalone, let closeStandalone):
                    if !openStandalone { startLine() }
                    try section(resolve(name, in: program), program, index + 1..<end, inverted: inverted)
                    if closeStandalone { pending = true }
                    index = end
                case .partial(let reference, let indentation):
                    if indentation == nil { startLine() }
                    try include(reference, of: program, indentation: indentation, overrides: nil)
                    pending = indentation != nil
                    index += 1
                case .parent(let reference, let blocks, let end, let indentation, let closeStandalone):
                    if indentation == nil { startLine() }
                    try include(reference, of: program, indentation: indentation, overrides: Overrides(program: program, blocks: blocks))
                    pending = closeStandalone
                    index = end
                case .block(let block, let end):
                    try fill(program.blocks[block], of: program)
                    index = end
                }
            }
            if out.count > byteLimit { throw overBudget() }
        } catch {
            guard error.byPreviousStep else { throw located(error, at: index, in: program) }
            // The bytes were written by the step before `index` of this range, if any (else by
            // the step that entered it, which a range further out has).
            var error = error
            error.byPreviousStep = false
            throw previousStep(before: index, in: range, of: program).map { located(error, at: $0, in: program) } ?? error
        }
    }

    /// The error for a render that went past its budget of steps or bytes.
    private func overBudget() -> MustacheRenderError {
        let limit: MustacheRenderError.Limit = stepsLeft < 0 ? .steps(budget.steps) : .bytes(budget.bytes)
        let what = switch limit {
        case .steps(let steps): "took more than \(steps) steps"
        case .bytes(let bytes): bytes % (1 << 20) == 0 ? "wrote more than \(bytes >> 20) MB" : "wrote more than \(bytes) bytes"
        case .depth: ""
        }
        // Bytes are counted before the next step: the step before it wrote them.
        return MustacheRenderError(
            message: "the templates \(what) (\(trailText))", templates: trail.map(\.string), limit: limit, byPreviousStep: limit == .bytes(budget.bytes))
    }

    /// The step of `range` taken just before `index` (the steps of a range go one after another,
    /// each section, parent and block jumping over its content), or nil when `index` is its first.
    private func previousStep(before index: Int, in range: Range<Int>, of program: Program.Contents) -> Int? {
        var step = range.lowerBound
        var previous: Int?
        while step < index {
            previous = step
            switch program.steps[step] {
            case .section(_, let end, _, _, _), .parent(_, _, let end, _, _), .block(_, let end): step = end
            case .text, .variable, .partial: step += 1
            }
        }
        return previous
    }

    /// The templates being rendered, the innermost last, for a message.
    private var trailText: String {
        var shown = trail.suffix(6).map(\.string)
        if trail.count > 6 { shown.insert("…", at: 0) }
        return shown.joined(separator: " > ")
    }

    private mutating func section(_ value: MustacheValue, _ program: Program.Contents, _ body: Range<Int>, inverted: Bool) throws(MustacheRenderError) {
        if inverted {
            if !value.isTruthy { try nested(program, body) }
            return
        }
        switch value {
        case .list(let items):
            for item in items {
                push(item)
                try nested(program, body)
                pop()
            }
        case .deferredList(let count):
            holes.append(MustacheHole(
                offset: out.count, count: count, program: program, body: body, stack: stack, overrides: overrides,
                indentation: indentation, trail: trail, budget: budget, library: library, owner: owner))
        default:
            guard value.isTruthy else { return }
            push(value)
            try nested(program, body)
            pop()
        }
    }

    /// A partial, or with `overrides` a parent.
    private mutating func include(
        _ reference: Program.Reference, of program: Program.Contents, indentation standalone: Literal?, overrides: Overrides?
    ) throws(MustacheRenderError) {
        let name: MustacheName
        if reference.dynamic {
            guard case .text(let text) = resolve(reference.name, in: program), let found = library.name(of: text) else { return }
            name = found
        } else {
            name = program.names[reference.name.start]
        }
        guard name.id < library.programs.count, let template = library.programs[name.id] else { return }
        // A standalone partial indents each of its lines by the tag's indentation (after the
        // enclosing one); an inline partial's lines are not indented at all.
        let depth = indentation.count
        var saved: [Literal] = []
        if let standalone {
            if !standalone.isEmpty { indentation.append(standalone) }
            pending = true
        } else {
            swap(&saved, &indentation)
        }
        if let overrides { self.overrides.append(overrides) }
        trail.append(name)
        try nested(template, template.all)
        trail.removeLast()
        if overrides != nil { self.overrides.removeLast() }
        if standalone != nil { indentation.removeSubrange(depth...) } else { swap(&saved, &indentation) }
    }

    /// A block: what the most derived template gave for it, else its own content.
    private mutating func fill(_ block: Program.BlockStep, of program: Program.Contents) throws(MustacheRenderError) {
        if !block.openStandalone { startLine() }
        var replacement: (program: Program.Contents, block: Program.BlockStep)?
        search: for level in overrides.indices {
            let candidates = overrides[level]
            for candidate in candidates.blocks where candidates.program.blocks[candidate].name == block.name {
                replacement = (candidates.program, candidates.program.blocks[candidate])
                break search
            }
        }
        if let replacement {
            let depth = indentation.count
            if !block.indentation.isEmpty { indentation.append(block.indentation) }
            if block.openStandalone { pending = true }
            try nested(replacement.program, replacement.block.content)
            indentation.removeSubrange(depth...)
        } else {
            try nested(program, block.content)
        }
        if block.closeStandalone { pending = true }
    }

    private mutating func nested(_ program: Program.Contents, _ range: Range<Int>) throws(MustacheRenderError) {
        guard depth < MustacheLibrary.maximumDepth else {
            // A template on the way twice includes itself through the data; otherwise the
            // templates are only nested too deep.
            let repeats = Set(trail.map(\.id)).count < trail.count
            let what = repeats ? "templates include each other without end" : "templates nest more than \(MustacheLibrary.maximumDepth) deep"
            let limit = repeats ? " (deeper than \(MustacheLibrary.maximumDepth))" : ""
            throw MustacheRenderError(message: "\(what) (\(trailText))\(limit)", templates: trail.map(\.string), limit: .depth(MustacheLibrary.maximumDepth))
        }
        depth += 1
        defer { depth -= 1 }
        try render(program, range)
    }

    // MARK: Output

    private mutating func emit(_ text: Literal) {
        if indentation.isEmpty {
            out.append(text)
            return
        }
        var start = 0
        while start < text.count {
            if pending {
                writeIndentation()
                pending = false
            }
            guard let newline = text.firstNewline(from: start) else {
                out.append(text, start..<text.count)
                return
            }
            out.append(text, start..<newline + 1)
            start = newline + 1
            pending = true
        }
    }

    private mutating func writeIndentation() {
        for piece in indentation { out.append(piece) }
    }

    /// Before a tag that is not alone on its line: the line's indentation, if it starts one.
    private mutating func startLine() {
        if pending, !indentation.isEmpty { writeIndentation() }
        pending = false
    }

    private mutating func write(_ value: MustacheValue, escaped: Bool) {
        switch value {
        case .text(let text):
            // A span borrows the text (much of it shared by both rendering threads) where
            // `withContiguousStorageIfAvailable` retained and released it.
            let bytes = text.utf8.span
            if escaped { library.escape(bytes, &out) } else { out.append(bytes) }
        case .int(let number):
            out.append(String(number).utf8.span)
        case .bool(let flag):
            out.append(flag ? "true" : "false")
        case .null, .object, .list, .deferredList:
            break
        }
    }

    // MARK: Names

    private func resolve(_ name: Program.Name, in program: Program.Contents) -> MustacheValue {
        if name.isDot { return stack.last ?? .null }
        let parts = program.names
        guard var value = lookUp(parts[name.start]) else { return .null }
        var part = name.start + 1
        while part < name.start + name.count {
            guard let next = value.field(parts[part]) else { return .null }
            value = next
            part += 1
        }
        return value
    }

    /// The first object of the context stack, innermost first, that has `name`.
    private func lookUp(_ name: MustacheName) -> MustacheValue? {
        var frame = stack.count - 1
        while frame >= 0 {
            if let value = stack[frame].field(name) { return value }
            frame -= 1
        }
        return nil
    }
}

/// The blocks one parent tag overrides: `blocks` of `program.blocks`.
struct Overrides: Sendable {
    let program: Program.Contents
    let blocks: Range<Int>
}

extension MustacheRenderer {
    /// The program whose steps `contents` are: a registered one, or the one being rendered.
    private func program(of contents: Program.Contents) -> Program? {
        if let owner, contents.belong(to: owner) { return owner }
        return library.program(of: contents)
    }

    /// `error` at step `index` of `contents`, unless it has a place already (a step inside this
    /// one failed) or the step is not where it can be: text is no tag (the tag around it, in a
    /// step further out, is where the text was written), and past the depth limit the place is
    /// the partial or parent tag that went deeper, not a section on the way.
    func located(_ error: MustacheRenderError, at index: Int, in contents: Program.Contents) -> MustacheRenderError {
        guard error.line == nil, let program = program(of: contents), index < program.places.count else { return error }
        let place = program.places[index]
        guard place.isTag else { return error }
        if case .depth = error.limit {
            switch contents.steps[index] {
            case .partial, .parent: break
            default: return error
            }
        }
        var error = error
        error.file = program.file
        error.line = place.line
        error.column = place.column
        return error
    }

    /// `error` in the file of `contents`'s template, when it has no place yet: a render that
    /// failed in no tag of it.
    func located(_ error: MustacheRenderError, in contents: Program.Contents) -> MustacheRenderError {
        guard error.line == nil, error.file == nil else { return error }
        var error = error
        error.file = program(of: contents)?.file
        return error
    }
}
