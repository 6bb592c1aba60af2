import CardFeedMustache
import CardFeedModel

/// Finds what Mustache itself would pass over in silence: a partial or parent template that does
/// not exist (it renders as nothing), a name that no card or page has (it renders as nothing too,
/// which hides a typo such as `{{titel}}` or `{{created.txt}}`), a block that the parent it is
/// given to does not have, and templates that include each other whatever the data (they would
/// never end).
struct TemplateLinter {
    /// Every template, by the file it comes from (a built-in that the site overrides included,
    /// since `builtin.<name>` still reaches it), and which file each registered name reaches.
    let templates: [String: MustacheTemplate]
    let names: [String: String]

    /// The names of the values that have fields, with their fields. The card's and the page's
    /// own names come from their views' `Key`s; `TemplateLinterTests` renders each nested field
    /// of this table from a real view, so that it cannot drift from the views.
    static let fields: [String: Set<String>] = {
        let moment: Set = ["iso", "text"]
        let image: Set = ["src", "srcset", "alt", "width", "height", "placeholder", "small"]
        return [
            "created": moment, "updated": moment, "expires": moment,
            "image": image, "pinnedIcon": image,
            "link": ["href", "text"],
            "categories": ["name", "title", "href"],
            "extrasList": ["key", "value"],
            "rating": ["value", "text", "stars"],
            "stars": ["kind"],
            "reviews": ["count", "text"],
            "price": ["text", "free"],
            "feed": ["slug", "title", "count", "countText", "href"],
            "nav": ["slug", "title", "count", "countNoun", "href", "current"],
            "pagination": ["current", "total", "previous", "next", "pages"],
            "pages": ["number", "href", "current", "gap"],
            "alternates": ["atom", "json", "title"],
            "favicon": ["href", "type"],
            "social": ["url", "title", "description", "image", "siteName", "twitterCard"],
            "entries": Set(MustacheFields<FeedEntryView.Key>.names),
            "urls": Set(MustacheFields<SitemapView.PageURL.Key>.names),
        ]
    }()

    /// Values whose fields are the site's own: any name goes.
    static let openFields: Set = ["extras", "strings"]

    /// Every name a tag can look up first: the card's, the page's, a feed's, a feed entry's and
    /// the sitemap's, and inside a section, the fields of the value it is over.
    static let vocabulary: Set<String> = Set(
        MustacheFields<CardView.Key>.names + MustacheFields<PageView.Key>.names + MustacheFields<FeedDocumentView.Key>.names
            + MustacheFields<FeedEntryView.Key>.names + MustacheFields<SitemapView.Key>.names
    )
    .union(fields.values.joined())

    /// Unknown names reported for one template; past that, a count.
    static let namesReported = 20

    func check() -> [Diagnostic] {
        var problems: [Diagnostic] = []
        var blocksByFile: [String: Set<String>]?
        for (file, template) in templates.sorted(by: { $0.key < $1.key }) {
            var unknownNames = 0
            for tag in template.tags {
                switch tag.kind {
                case .partial, .parent:
                    guard !tag.name.hasPrefix("*"), names[tag.name] == nil else { continue }  // dynamic: resolved when rendered
                    problems.append(Diagnostic(
                        .error, file: file, line: tag.line, column: tag.column,
                        message: "no template named \(Diagnostic.quoted(tag.name))\(Diagnostic.suggestion(for: tag.name, among: Set(names.keys)))"))
                case .block:
                    guard let parent = tag.parent, let parentFile = names[parent] else { continue }
                    if blocksByFile == nil { blocksByFile = self.blocksByFile() }
                    let blocks = blocksByFile?[parentFile] ?? []
                    guard !blocks.contains(tag.name) else { continue }
                    problems.append(Diagnostic(
                        .warning, file: file, line: tag.line, column: tag.column,
                        message: "{{$\(tag.name)}} names no block of \(Diagnostic.quoted(parent)), so it replaces nothing; its blocks are \(blocks.sorted().joined(separator: ", "))\(Diagnostic.suggestion(for: tag.name, among: blocks))"))
                case .section where tag.name == "cards" && tag.sections.contains("cards"):
                    // The page's cards are one list, written once where the outer section stands:
                    // inside it, `cards` is the card being written, which has no cards.
                    problems.append(Diagnostic(
                        .error, file: file, line: tag.line, column: tag.column,
                        message: "{{#cards}} inside {{#cards}} shows no card: the cards are one list, shown where the outer {{#cards}} stands; remove the inner section"))
                case .variable, .raw, .section, .inverted:
                    guard unknownNames <= Self.namesReported, let problem = Self.unknownName(tag) else { continue }
                    unknownNames += 1
                    let message = unknownNames <= Self.namesReported ? problem : "and more names that no card or page has (only the first \(Self.namesReported) are listed)"
                    problems.append(Diagnostic(.warning, file: file, line: tag.line, column: tag.column, message: message))
                }
            }
        }
        return problems + cycles()
    }

    /// Why a tag's name renders as nothing, if it does.
    static func unknownName(_ tag: MustacheTag) -> String? {
        guard tag.name != "." else { return nil }
        let sigil = tag.kind == .section ? "#" : tag.kind == .inverted ? "^" : tag.kind == .raw ? "&" : ""
        let parts = tag.name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard vocabulary.contains(parts[0]) else {
            return "{{\(sigil)\(tag.name)}} names \(Diagnostic.quoted(parts[0])), which no card or page has, so it renders as nothing\(Diagnostic.suggestion(for: parts[0], among: vocabulary))"
        }
        var owner = parts[0]
        for part in parts.dropFirst() {
            if openFields.contains(owner) { return nil }
            guard let known = fields[owner] else {
                return "{{\(sigil)\(tag.name)}}: \(Diagnostic.quoted(owner)) has no fields, so it renders as nothing"
            }
            guard known.contains(part) else {
                return "{{\(sigil)\(tag.name)}} names \(Diagnostic.quoted(part)) of \(Diagnostic.quoted(owner)), which has only \(known.sorted().joined(separator: ", ")), so it renders as nothing\(Diagnostic.suggestion(for: part, among: known))"
            }
            owner = part
        }
        return nil
    }

    /// The blocks each template has, by file, for a parent tag's blocks to be checked against:
    /// its own, and those of the templates it includes or extends. Worked out once for all,
    /// each component of templates that include each other after those it reaches.
    private func blocksByFile() -> [String: Set<String>] {
        let files = templates.keys.sorted()
        let numbers = Dictionary(uniqueKeysWithValues: files.enumerated().map { ($1, $0) })
        var own = [Set<String>](repeating: [], count: files.count)
        var edges = [[Int]](repeating: [], count: files.count)
        for (number, file) in files.enumerated() {
            for tag in templates[file]!.tags {
                switch tag.kind {
                case .block where tag.parent == nil: own[number].insert(tag.name)
                case .partial, .parent: if let target = names[tag.name].flatMap({ numbers[$0] }) { edges[number].append(target) }
                default: break
                }
            }
        }
        var component = [Int](repeating: -1, count: files.count)
        var blocks: [Set<String>] = []
        for members in TemplateGraph(edges: edges).components() {
            let id = blocks.count
            var found = Set<String>()
            for member in members {
                component[member] = id
                found.formUnion(own[member])
            }
            for member in members {
                for target in edges[member] where component[target] != id { found.formUnion(blocks[component[target]]) }
            }
            blocks.append(found)
        }
        return Dictionary(uniqueKeysWithValues: files.enumerated().map { ($1, blocks[component[$0]]) })
    }

    /// Templates that include each other outside any section: rendering one would never end.
    /// One error for each group of templates that include each other, at the first of them by
    /// file name, showing one way round.
    private func cycles() -> [Diagnostic] {
        let files = templates.keys.sorted()
        let numbers = Dictionary(uniqueKeysWithValues: files.enumerated().map { ($1, $0) })
        var tags = [[MustacheTag]](repeating: [], count: files.count)
        var edges = [[Int]](repeating: [], count: files.count)
        for (number, file) in files.enumerated() {
            for tag in templates[file]!.tags {
                guard tag.kind == .partial || tag.kind == .parent, !tag.conditional, let target = names[tag.name].flatMap({ numbers[$0] }) else { continue }
                tags[number].append(tag)
                edges[number].append(target)
            }
        }
        let graph = TemplateGraph(edges: edges)
        var starts: [(start: Int, path: [(node: Int, edge: Int)])] = []
        for members in graph.components() {
            let start = members.min()!
            guard members.count > 1 || edges[start].contains(start), let path = graph.cycle(through: start, within: Set(members)) else { continue }
            starts.append((start, path))
        }
        return starts.sorted { $0.start < $1.start }.map { start, path in
            let first = tags[path[0].node][path[0].edge]
            let chain = path.map { step in
                let tag = tags[step.node][step.edge]
                return "{{\(tag.kind == .parent ? "<" : ">")\(tag.name)}}"
            }.joined(separator: " then ")
            return Diagnostic(
                .error, file: files[start], line: first.line, column: first.column,
                message: "this template includes itself whatever the data (\(chain)), so rendering it would never end; put the inclusion inside a section that ends")
        }
    }
}
