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

    /// The views a template is rendered over, by the name it is registered under; the templates
    /// they include are rendered over the same views, with those of the sections around the
    /// inclusion on top.
    static let roots: [String: ViewSchema] = {
        var roots = [
            TemplateSet.pageTemplate: PageView.schema,
            TemplateSet.cardPageTemplate: CardPageView.schema,
            TemplateSet.searchDocumentTemplate: CardPageView.schema,
            "card": CardView.schema,
            TemplateSet.feedEntryTemplate: FeedEntryView.schema,
            PlacementFiles.template: PlacementView.schema,
            PlacementFiles.frameTemplate: PlacementFrameView.schema,
        ]
        for format in OutputFormat.all {
            guard let name = format.template else { continue }
            switch format.view {
            case .feed: roots[name] = FeedDocumentView.schema
            case .site: roots[name] = SitemapView.schema
            }
        }
        return roots
    }()

    static func root(of name: String) -> ViewSchema? {
        let name = name.hasPrefix(TemplateSet.builtinPrefix) ? String(name.dropFirst(TemplateSet.builtinPrefix.count)) : name
        return name.hasPrefix("cards/") ? CardView.schema : roots[name]
    }

    /// Unknown names reported for one template; past that, a count.
    static let namesReported = 20

    func check() -> [Diagnostic] {
        let contexts = self.contexts()
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
                case .section where tag.name == "cards" && (contexts[file] ?? []).contains(where: { $0.pushing(tag.sections).inCards }):
                    // The page's cards are one list, written once where the outer section stands
                    // (in this template or one that includes it): an inner one writes nothing.
                    problems.append(Diagnostic(
                        .error, file: file, line: tag.line, column: tag.column,
                        message: "{{#cards}} inside {{#cards}} shows no card: the cards are one list, shown where the outer {{#cards}} stands; remove the inner section"))
                case .variable, .raw, .section, .inverted:
                    // A block given to a parent renders where the parent's block stands, in the
                    // parent's sections there: any view's name may be meant.
                    let checkedIn = tag.overriding ? [ViewContext.anyView] : contexts[file] ?? [ViewContext.anyView]
                    guard unknownNames <= Self.namesReported, let problem = Self.unknownName(tag, in: checkedIn) else { continue }
                    unknownNames += 1
                    let message = unknownNames <= Self.namesReported ? problem : "and more names that no card or page has (only the first \(Self.namesReported) are listed)"
                    problems.append(Diagnostic(.warning, file: file, line: tag.line, column: tag.column, message: message))
                }
            }
        }
        return problems + cycles()
    }

    /// Why a tag's name renders as nothing in every context its template is rendered in, if it
    /// does (in one of them is enough to keep it: a partial may serve a card and a page).
    static func unknownName(_ tag: MustacheTag, in contexts: [ViewContext]) -> String? {
        guard tag.name != "." else { return nil }
        var first: String?
        for context in contexts {
            guard let problem = context.pushing(tag.sections).problem(with: tag) else { return nil }
            first = first ?? problem
        }
        return first
    }

    /// The views the templates are rendered over, each alone (for messages and the docs' test).
    static let anyRoot = [PageView.schema, CardPageView.schema, CardView.schema, FeedDocumentView.schema, FeedEntryView.schema, SitemapView.schema, PlacementView.schema, PlacementFrameView.schema]
        .map { ViewContext([$0]) }

    /// The contexts each template is rendered in: the root templates over their views, and what
    /// they include over the same, with the views of the sections around the inclusion on top.
    /// Where that cannot be known (a site with dynamic partials, `{{>*name}}`, which may include
    /// any template; a template included from more than `contextsKept` places), a template is
    /// checked in `ViewContext.anyView` too; a template nothing includes, in that alone.
    private func contexts() -> [String: [ViewContext]] {
        var found: [String: [ViewContext]] = [:]
        var work: [(file: String, context: ViewContext)] = []
        for (name, file) in names.sorted(by: { $0.key < $1.key }) {
            guard let root = Self.root(of: name) else { continue }
            let context = ViewContext([root])
            if !(found[file] ?? []).contains(context) {
                found[file, default: []].append(context)
                work.append((file, context))
            }
        }
        let roots = Set(found.keys)
        let dynamic = templates.values.contains { $0.tags.contains { ($0.kind == .partial || $0.kind == .parent) && $0.name.hasPrefix("*") } }
        while let (file, context) = work.popLast() {
            for tag in templates[file]?.tags ?? [] where tag.kind == .partial || tag.kind == .parent {
                guard let target = names[tag.name] else { continue }
                guard (found[target]?.count ?? 0) < Self.contextsKept else {
                    if found[target]?.contains(.anyView) == false { found[target]?.append(.anyView) }
                    continue
                }
                let inner = context.pushing(tag.sections)
                guard !(found[target] ?? []).contains(inner) else { continue }
                found[target, default: []].append(inner)
                work.append((target, inner))
            }
        }
        if dynamic {
            for file in templates.keys where !roots.contains(file) && found[file] != nil && !found[file]!.contains(.anyView) {
                found[file]!.append(.anyView)
            }
        }
        return found
    }

    static let contextsKept = 16

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
