/// A template as the renderer runs it: the parser's tree of nodes laid out in one array, each
/// section's, block's and parent's content right after its own step. Every step is plain data
/// (numbers, and literal text held without reference counting), so rendering walks indices and
/// copies nothing that is retained and released, as a tree of enums with arrays and classes in
/// their payloads would be at every step.
final class Program: Sendable {
    /// The steps, in order, held without reference counting: a template renders for every card.
    let steps: PlainBuffer<Step>
    /// The parts of every name the steps look up, a name's parts one after another (`Step.Name`).
    let names: PlainBuffer<MustacheName>
    /// The blocks (`{{$name}}`) of the template, and the blocks each parent tag overrides.
    let blocks: PlainBuffer<BlockStep>
    /// Where the literal text is (every `Literal` points into it).
    let arena: TextArena
    /// Where each step's tag stands in the template (`TagPlace.none` for text), and the file the
    /// template was read from: read only when a render fails, so that its error names the tag.
    /// Kept here, out of the steps and of `Contents`, so that rendering carries nothing more.
    let places: [TagPlace]
    let file: String?

    var all: Range<Int> { 0..<steps.count }

    /// The program as the renderer walks it: its memory, valid while this object lives.
    var contents: Contents { Contents(steps: steps, names: names, blocks: blocks) }

    /// A program's memory without its owner, so that entering a partial or a parent (a few times
    /// a card, the same templates on every thread) retains nothing. Whoever renders keeps the
    /// `Program` alive: the library that holds it, or a hole that holds it.
    struct Contents: Sendable {
        let steps: PlainBuffer<Step>
        let names: PlainBuffer<MustacheName>
        let blocks: PlainBuffer<BlockStep>

        var all: Range<Int> { 0..<steps.count }

        /// Whether these are `program`'s steps (for a failed render, which has only the steps).
        func belong(to program: Program) -> Bool {
            steps.count > 0 && steps.base.baseAddress == program.steps.base.baseAddress
        }
    }

    init(_ nodes: [Node], arena: TextArena, file: String?) {
        var compiler = Compiler(arena: arena)
        compiler.compile(nodes)
        steps = PlainBuffer(compiler.steps)
        names = PlainBuffer(compiler.names)
        blocks = PlainBuffer(compiler.blocks)
        places = compiler.places
        self.file = file
        self.arena = arena
    }

    deinit {
        steps.free()
        names.free()
        blocks.free()
    }

    /// One step of a template. "Standalone" tags stood alone on their line, which the parser
    /// removed; what follows them starts a line (see `MustacheRenderer.startLine`).
    enum Step: Sendable {
        case text(Literal)
        case variable(Name, escaped: Bool)
        /// The section's content is the steps after this one, up to `end`.
        case section(Name, end: Int, inverted: Bool, openStandalone: Bool, closeStandalone: Bool)
        /// `indentation` is nil for a partial that does not stand alone on its line.
        case partial(Reference, indentation: Literal?)
        /// The blocks it overrides are `blocks` of `Program.blocks`; their content is the steps
        /// after this one, up to `end`.
        case parent(Reference, blocks: Range<Int>, end: Int, indentation: Literal?, closeStandalone: Bool)
        /// Block `index` of `Program.blocks`, whose default content is the steps up to `end`.
        case block(index: Int, end: Int)
    }

    /// A name as a tag looks it up: `count` parts from `start` of `Program.names`; no parts for
    /// `.`, the current item.
    struct Name: Sendable {
        var start: Int
        var count: Int
        var isDot: Bool { count == 0 }
    }

    /// Which template a partial or parent tag names: a fixed name (one part), or (`{{>*name}}`)
    /// the text a name of the context holds.
    struct Reference: Sendable {
        var name: Name
        var dynamic: Bool
    }

    /// A block: where it stands in a parent, the content that replaces the parent's; elsewhere, a
    /// place a child may fill, with its default content.
    struct BlockStep: Sendable {
        /// `MustacheName.id` of its name.
        var name: Int
        var content: Range<Int>
        /// The indentation the content that replaces a block here gets on each line.
        var indentation: Literal
        var openStandalone: Bool
        var closeStandalone: Bool
    }

    /// Lays the tree out, depth first.
    private struct Compiler {
        let arena: TextArena
        var steps: [Step] = []
        /// The place of each step's tag, at the same index.
        var places: [TagPlace] = []
        var names: [MustacheName] = []
        var blocks: [BlockStep] = []
        /// Names already laid out, so that `{{#url}}...{{url}}` share their parts.
        var known: [[Int]: Name] = [:]
        let empty: Literal

        init(arena: TextArena) {
            self.arena = arena
            empty = arena.store([])
        }

        mutating func compile(_ nodes: [Node]) {
            for node in nodes {
                switch node {
                case .text(let text):
                    append(.text(text), at: .none)
                case .variable(let path, let escaped, let place):
                    append(.variable(name(path), escaped: escaped), at: place)
                case .section(let path, let body, let inverted, let openStandalone, let closeStandalone, let place):
                    let name = name(path)
                    let at = reserve(place)
                    compile(body)
                    steps[at] = .section(name, end: steps.count, inverted: inverted, openStandalone: openStandalone, closeStandalone: closeStandalone)
                case .partial(let reference, let indentation, let place):
                    append(.partial(self.reference(reference), indentation: indentation.map(arena.store)), at: place)
                case .parent(let reference, let overrides, let indentation, let closeStandalone, let place):
                    let reference = self.reference(reference)
                    let at = reserve(place)
                    // The overriding blocks' own entries first, one after another, then their content.
                    let first = blocks.count
                    blocks += overrides.map { BlockStep(name: $0.name.id, content: 0..<0, indentation: empty, openStandalone: false, closeStandalone: false) }
                    for (offset, block) in overrides.enumerated() {
                        let start = steps.count
                        compile(block.nodes)
                        blocks[first + offset] = BlockStep(
                            name: block.name.id, content: start..<steps.count, indentation: arena.store(block.indentation),
                            openStandalone: block.openStandalone, closeStandalone: block.closeStandalone)
                    }
                    steps[at] = .parent(
                        reference, blocks: first..<first + overrides.count, end: steps.count,
                        indentation: indentation.map(arena.store), closeStandalone: closeStandalone)
                case .block(let block):
                    let index = blocks.count
                    blocks.append(BlockStep(name: block.name.id, content: 0..<0, indentation: empty, openStandalone: false, closeStandalone: false))
                    let at = reserve(block.place)
                    compile(block.nodes)
                    blocks[index] = BlockStep(
                        name: block.name.id, content: at + 1..<steps.count, indentation: arena.store(block.indentation),
                        openStandalone: block.openStandalone, closeStandalone: block.closeStandalone)
                    steps[at] = .block(index: index, end: steps.count)
                }
            }
        }

        private mutating func append(_ step: Step, at place: TagPlace) {
            steps.append(step)
            places.append(place)
        }

        /// A place for a step whose content follows it, filled in when the content is laid out.
        private mutating func reserve(_ place: TagPlace) -> Int {
            append(.text(empty), at: place)
            return steps.count - 1
        }

        private mutating func name(_ path: Path) -> Name {
            let parts: [MustacheName]
            switch path {
            case .dot: parts = []
            case .one(let name): parts = [name]
            case .two(let first, let second): parts = [first, second]
            case .dotted(let all): parts = all
            }
            let key = parts.map(\.id)
            if let known = known[key] { return known }
            let name = Name(start: names.count, count: parts.count)
            names += parts
            known[key] = name
            return name
        }

        private mutating func reference(_ reference: TemplateReference) -> Reference {
            switch reference {
            case .fixed(let fixed): Reference(name: name(.one(fixed)), dynamic: false)
            case .dynamic(let path): Reference(name: name(path), dynamic: true)
            }
        }
    }
}
