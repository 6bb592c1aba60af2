/// A parsed template, parsed once when it is loaded and rendered many times.
public struct MustacheTemplate: Sendable {
    /// The template as the renderer runs it.
    let program: Program
    /// Every tag with its place, for checking templates (`TemplateLinter`).
    public let tags: [MustacheTag]

    /// Parses `source`. Sections may nest `maximumDepth` deep (deeper nesting is an error, not a
    /// crash of the renderer's stack). `file` is where it was read from, as render errors that
    /// happen at one of its tags name it.
    public init(_ source: String, file: String? = nil) throws(MustacheParseError) {
        var parser = MustacheParser(source)
        let nodes: [Node]
        (nodes, tags) = try parser.parse()
        program = Program(nodes, arena: parser.arena, file: file)
    }

    public static let maximumDepth = 100
}

/// A tag as it stands in a template.
public struct MustacheTag: Sendable {
    public enum Kind: Sendable {
        case variable, raw, section, inverted, partial, parent, block
    }

    public var kind: Kind
    /// The name as written, dots and all (`created.iso`, `partials/nav`); a dynamic partial's
    /// starts with `*`.
    public var name: String
    public var line: Int
    public var column: Int
    /// For a block inside a parent tag (`{{<card}}{{$footer}}`): the parent's name.
    public var parent: String?
    /// Inside a section or an inverted section, so rendered only when its value says so.
    public var conditional: Bool
    /// The names of the sections (not inverted ones) the tag is inside, outermost first.
    public var sections: [String] = []
    /// Inside a block given to a parent (`{{<parent}}{{$b}}…{{/b}}{{/parent}}`): rendered where
    /// the parent's block stands, inside the parent's sections there.
    public var overriding = false
}

/// A template that cannot be parsed, with the place of the fault.
public struct MustacheParseError: Error, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String
    /// The text of the line the fault is on.
    public var lineText: String

    public var description: String { "\(line):\(column): \(message)" }
}

/// A template that cannot be rendered: it went past a limit (it includes itself without end,
/// nests too deep, or goes past its `MustacheBudget`).
public struct MustacheRenderError: Error, Sendable, CustomStringConvertible {
    public enum Limit: Sendable, Equatable {
        /// `MustacheLibrary.maximumDepth`.
        case depth(Int)
        case bytes(Int)
        case steps(Int)
    }

    public var message: String
    /// The names of the templates being rendered when it happened, outermost first.
    public var templates: [String] = []
    public var limit: Limit
    /// Where it happened: the file of the template (as given to `MustacheTemplate`, nil when it
    /// was not), and the line and column of the innermost tag being rendered, as the parser
    /// counts them (`MustacheTag`). Past the depth limit, that is the partial or parent tag that
    /// went deeper. Nil when the render was in no tag (a template's own text, outside any).
    public var file: String?
    public var line: Int?
    public var column: Int?
    /// Thrown before a step for what the step before it wrote: the range that threw it places it.
    var byPreviousStep = false

    /// `file:line:column: message`, with what is known of the place.
    public var description: String {
        var place = file ?? ""
        if let line, let column { place += "\(place.isEmpty ? "" : ":")\(line):\(column)" }
        return place.isEmpty ? message : "\(place): \(message)"
    }
}

/// A name as a tag looks it up: `.` (the current item), one name, or dotted parts. One name,
/// the usual case, is kept apart so that rendering it copies no array.
enum Path: Sendable {
    case dot
    case one(MustacheName)
    /// `created.iso`, `strings.unread`: common enough to keep out of an array too.
    case two(MustacheName, MustacheName)
    case dotted([MustacheName])

    init(_ text: String) {
        let names = text.split(separator: ".", omittingEmptySubsequences: false).map { MustacheName(String($0)) }
        switch names.count {
        case _ where text == ".": self = .dot
        case 1: self = .one(names[0])
        case 2: self = .two(names[0], names[1])
        default: self = .dotted(names)
        }
    }
}

/// Which template a partial or parent tag names: a fixed name, or (`{{>*name}}`) the text a
/// name of the context holds.
enum TemplateReference: Sendable {
    case fixed(MustacheName)
    case dynamic(Path)
}

/// A block (`{{$name}}...{{/name}}`): where it stands in a parent, the content that replaces
/// the parent's; elsewhere, a place a child may fill, with its default content.
final class Block: Sendable {
    let name: MustacheName
    let nodes: [Node]
    /// The indentation the content that replaces a block here gets on each line.
    let indentation: [UInt8]
    let openStandalone: Bool
    let closeStandalone: Bool
    /// Its `{{$name}}` tag.
    let place: TagPlace

    init(name: MustacheName, nodes: [Node], indentation: [UInt8], openStandalone: Bool, closeStandalone: Bool, place: TagPlace) {
        self.name = name
        self.nodes = nodes
        self.indentation = indentation
        self.openStandalone = openStandalone
        self.closeStandalone = closeStandalone
        self.place = place
    }
}

/// One piece of a parsed template. "Standalone" tags stood alone on their line, which the
/// parser removed; what follows them starts a line (see `MustacheRenderer.startLine`). Each tag
/// keeps where it stands (a section, parent or block: its opening tag), for render errors.
enum Node: Sendable {
    case text(Literal)
    case variable(Path, escaped: Bool, at: TagPlace)
    case section(Path, [Node], inverted: Bool, openStandalone: Bool, closeStandalone: Bool, at: TagPlace)
    /// `indentation` is nil for a partial that does not stand alone on its line.
    case partial(TemplateReference, indentation: [UInt8]?, at: TagPlace)
    case parent(TemplateReference, overrides: [Block], indentation: [UInt8]?, closeStandalone: Bool, at: TagPlace)
    case block(Block)
}

/// Where a tag stands in its template: the line and column the parser gave it, the same numbers
/// as its `MustacheTag`'s and those of a `MustacheParseError` there.
struct TagPlace: Sendable {
    var line: Int
    var column: Int

    /// Text, which is no tag.
    static let none = TagPlace(line: 0, column: 0)
    var isTag: Bool { line > 0 }
}
