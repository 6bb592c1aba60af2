/// Renders nodes by appending bytes: text is copied, names are looked up through the context
/// stack (innermost first), and a parent's blocks are filled from the overrides of the
/// templates that extend it (the outermost, most derived, first).
struct MustacheRenderer {
    let library: MustacheLibrary
    var out: [UInt8] = []
    var stack: [MustacheValue]
    /// The blocks each enclosing parent tag passes down, outermost first (a few each: a list
    /// is searched faster than a dictionary is hashed).
    var overrides: [[Block]] = []
    /// Put at the start of each line of template text: a standalone partial's indentation, say.
    var indentation: [UInt8] = []
    /// The next template text starts a line (and gets `indentation` first).
    var pending = false
    /// The templates being rendered, outermost first, for errors.
    var trail: [String]
    var holes: [MustacheHole] = []
    /// Sections, partials, parents and blocks entered and not yet left.
    private var depth = 0

    /// The text of the template rendered (see `MustacheHole.root`).
    let root: TextArena

    init(library: MustacheLibrary, stack: [MustacheValue], trail: [String], root: TextArena) {
        self.root = root
        self.library = library
        self.stack = stack
        self.trail = trail
    }

    mutating func render(_ nodes: [Node]) throws(MustacheRenderError) {
        for index in nodes.indices {
            switch nodes[index] {
            case .text(let text):
                emit(text.bytes)
            case .variable(let path, let escaped):
                startLine()
                write(resolve(path), escaped: escaped)
            case .section(let path, let body, let inverted, let openStandalone, let closeStandalone):
                if !openStandalone { startLine() }
                try section(resolve(path), body, inverted: inverted)
                if closeStandalone { pending = true }
            case .partial(let reference, let indentation):
                if indentation == nil { startLine() }
                try include(reference, indentation: indentation, overrides: nil)
                pending = indentation != nil
            case .parent(let reference, let overrides, let indentation, let closeStandalone):
                if indentation == nil { startLine() }
                try include(reference, indentation: indentation, overrides: overrides)
                pending = closeStandalone
            case .block(let block):
                try fill(block)
            }
        }
    }

    private mutating func section(_ value: MustacheValue, _ body: [Node], inverted: Bool) throws(MustacheRenderError) {
        if inverted {
            if !value.isTruthy { try nested(body) }
            return
        }
        switch value {
        case .list(let items):
            for item in items {
                stack.append(item)
                try nested(body)
                stack.removeLast()
            }
        case .deferredList(let count):
            holes.append(MustacheHole(
                offset: out.count, count: count, body: body, stack: stack, overrides: overrides, indentation: indentation,
                trail: trail, library: library, root: root))
        default:
            guard value.isTruthy else { return }
            stack.append(value)
            try nested(body)
            stack.removeLast()
        }
    }

    /// A partial, or with `overrides` a parent.
    private mutating func include(
        _ reference: TemplateReference, indentation standalone: [UInt8]?, overrides: [Block]?
    ) throws(MustacheRenderError) {
        let name: String
        let template: MustacheTemplate?
        switch reference {
        case .fixed(let fixed):
            name = fixed.string
            template = library.template(fixed)
        case .dynamic(let path):
            guard case .text(let text) = resolve(path) else { return }
            name = text
            template = library.template(named: text)
        }
        guard let template else { return }
        let saved = indentation
        if let standalone {
            indentation += standalone
            pending = true
        } else {
            // Only the partial's own lines are indented, and an inline partial's are not.
            indentation = []
        }
        if let overrides { self.overrides.append(overrides) }
        trail.append(name)
        try nested(template.nodes)
        trail.removeLast()
        if overrides != nil { self.overrides.removeLast() }
        indentation = saved
    }

    /// A block: what the most derived template gave for it, else its own content.
    private mutating func fill(_ block: Block) throws(MustacheRenderError) {
        if !block.openStandalone { startLine() }
        var replacement: Block?
        search: for level in overrides {
            for candidate in level where candidate.name.id == block.name.id {
                replacement = candidate
                break search
            }
        }
        if let replacement {
            let saved = indentation
            indentation += block.indentation
            if block.openStandalone { pending = true }
            try nested(replacement.nodes)
            indentation = saved
        } else {
            try nested(block.nodes)
        }
        if block.closeStandalone { pending = true }
    }

    private mutating func nested(_ nodes: [Node]) throws(MustacheRenderError) {
        guard depth < MustacheLibrary.maximumDepth else {
            var shown = Array(trail.suffix(6))
            if trail.count > 6 { shown.insert("…", at: 0) }
            throw MustacheRenderError(message: "templates include each other without end (\(shown.joined(separator: " > ")))")
        }
        depth += 1
        defer { depth -= 1 }
        try render(nodes)
    }

    // MARK: Output

    private mutating func emit(_ text: UnsafeBufferPointer<UInt8>) {
        if indentation.isEmpty {
            out += text
            return
        }
        var start = 0
        while start < text.count {
            if pending {
                out += indentation
                pending = false
            }
            guard let newline = text[start...].firstIndex(of: UInt8(ascii: "\n")) else {
                out += UnsafeBufferPointer(rebasing: text[start...])
                return
            }
            out += UnsafeBufferPointer(rebasing: text[start...newline])
            start = newline + 1
            pending = true
        }
    }

    /// Before a tag that is not alone on its line: the line's indentation, if it starts one.
    private mutating func startLine() {
        if pending, !indentation.isEmpty { out += indentation }
        pending = false
    }

    private mutating func write(_ value: MustacheValue, escaped: Bool) {
        switch value {
        case .text(let text):
            if escaped { library.escape(text, &out) } else { out += text.utf8 }
        case .int(let number):
            out += String(number).utf8
        case .bool(let flag):
            out += (flag ? "true" : "false").utf8
        case .null, .object, .list, .deferredList:
            break
        }
    }

    // MARK: Names

    private func resolve(_ path: Path) -> MustacheValue {
        switch path {
        case .dot:
            return stack.last ?? .null
        case .one(let name):
            return lookUp(name) ?? .null
        case .two(let first, let second):
            return lookUp(first)?.field(second) ?? .null
        case .dotted(let names):
            guard var value = lookUp(names[0]) else { return .null }
            var part = 1
            while part < names.count {
                guard let next = value.field(names[part]) else { return .null }
                value = next
                part += 1
            }
            return value
        }
    }

    /// The first frame of the context stack, innermost first, that has `name`.
    private func lookUp(_ name: MustacheName) -> MustacheValue? {
        var frame = stack.count - 1
        while frame >= 0 {
            if case .object(let object) = stack[frame], let value = object.value(for: name) { return value }
            frame -= 1
        }
        return nil
    }
}
