import CardFeedMustache
import Foundation
import CardFeedModel
import CardFeedSystem

/// The templates a site renders with: the built-ins, each replaced by the site's file of the
/// same path under `SITE/templates/`, and every built-in also reachable as `builtin.<name>` so
/// that a site template can extend the original through Mustache inheritance
/// (`{{<builtin.cards.short_news}}...{{/builtin.cards.short_news}}`) instead of copying it.
/// Built-in or not, every template is parsed once here and rendered by the same engine.
///
/// Every template is registered under its path ("cards/short_news") and under the same name
/// with dots ("cards.short_news"), the way docs/templates.md writes the built-ins' names.
public struct TemplateSet: Sendable {
    public static let builtinPrefix = "builtin."

    /// "cards/short_news" -> "cards.short_news".
    public static func dotted(_ name: String) -> String { name.replacingOccurrences(of: "/", with: ".") }
    /// The page template and the shared card frame every card type extends.
    public static let pageTemplate = "page"

    public static func cardTemplate(_ type: CardType) -> String { "cards/\(type.rawValue)" }
    /// A card's own page (see `CardPages`).
    static let cardPageTemplate = "card_page"
    /// What the search index reads in a card page's place (see `CardPages`).
    static let searchDocumentTemplate = "search_document"
    /// The HTML of a card in the feeds (see `Syndication`).
    static let feedEntryTemplate = "feed_entry"

    /// What `{{name}}` escapes for in the template `name`: the language its `OutputFormat` is
    /// written in, HTML for pages. A template's partials write into it, so they escape for it too.
    static func escaping(forTemplate name: String) -> OutputFormat.Escaping { OutputFormat.made(byTemplate: name)?.escaping ?? .html }

    /// Every template, `{{name}}` escaped for HTML.
    let library: MustacheLibrary
    /// The same templates for each other language a format is written in (`OutputFormat.Escaping`).
    private let otherLibraries: [OutputFormat.Escaping: MustacheLibrary]
    /// Names of templates that come from the site (relative path without `.mustache`).
    public let overrides: Set<String>
    /// Template names the site added that replace no built-in.
    public let additions: Set<String>
    /// The site's card templates (`cards/<name>` by `<name>`) that show no image: they name none
    /// (`image`, `{{>partials/image}}`) and extend no built-in card template that does, so a
    /// text announcement with an image shows none through them (`TemplateSet.showsNoImage`).
    package private(set) var cardTemplatesWithoutImage: [String: String] = [:]
    /// A hash of every template's name and text: a card rendered before with the same one
    /// renders the same again.
    let fingerprint: Int
    /// For each card template (`cards/<name>` by `<name>`), a hash of the names and texts of the
    /// templates it reaches (its parents and partials, theirs, and the names it includes that
    /// no template answers to): a card is made again when one of those changed, not when
    /// another card type's template did (`CardRenderKey`).
    private(set) var cardFingerprints: [String: Int] = [:]
    /// The card templates (`cards/<name>`) by `<name>`, worked out once: finding a template by
    /// its full name for every card would build a string and take the name table's lock, on
    /// both rendering threads.
    private let cardTemplates: [String: MustacheName]
    private let page: MustacheName?
    private let cardPage: MustacheName?
    private let searchDocument: MustacheName?
    /// The file of the `search_document` template, as shown to the user: the site's, else the built-in one.
    var searchDocumentFile = "(built-in) templates/\(searchDocumentTemplate).mustache"

    init(library: MustacheLibrary, overrides: Set<String>, additions: Set<String>, fingerprint: Int) {
        self.library = library
        var otherLibraries: [OutputFormat.Escaping: MustacheLibrary] = [:]
        for escaping in OutputFormat.Escaping.allCases where escaping != .html { otherLibraries[escaping] = library.escaping(with: escaping.append) }
        self.otherLibraries = otherLibraries
        self.overrides = overrides
        self.additions = additions
        self.fingerprint = fingerprint
        var cardTemplates: [String: MustacheName] = [:]
        for name in Array(BuiltinFiles.templates.keys) + additions where name.hasPrefix("cards/") {
            if let template = library.name(of: name) { cardTemplates[String(name.dropFirst("cards/".count))] = template }
        }
        self.cardTemplates = cardTemplates
        page = library.name(of: Self.pageTemplate)
        cardPage = library.name(of: Self.cardPageTemplate)
        searchDocument = library.name(of: Self.searchDocumentTemplate)
    }

    /// A template's name, file (as shown to the user) and text.
    struct Source {
        var name: String
        var file: String
        var text: String
        var builtin: Bool { file.hasPrefix("(built-in)") }
    }

    /// Loads and checks every template; problems are added to `diagnostics`. Returns nil when
    /// a template cannot be used (a syntax error, a missing partial or one that includes itself).
    public static func load(site: SiteFolder, diagnostics: inout Diagnostics) -> TemplateSet? {
        var sources = BuiltinFiles.templates.sorted { $0.key < $1.key }.map { Source(name: $0.key, file: "(built-in) templates/\($0.key).mustache", text: $0.value) }
        var failed = false
        var overrides = Set<String>()
        var additions = Set<String>()
        for path in site.templateFiles() {
            let url = site.templatesFolder.appendingPathComponent(path)
            let file = site.display(url)
            let name = String(path.dropLast(".mustache".count))
            let data: Data
            do { data = try InputFile.read(url) } catch {
                diagnostics.append(Diagnostic(.error, file: file, message: "the template \(error.description)"))
                failed = true
                continue
            }
            guard let text = String(data: data, encoding: .utf8) else {
                diagnostics.append(Diagnostic(.error, file: file, message: "the template is not UTF-8 text"))
                failed = true
                continue
            }
            if name.hasPrefix(builtinPrefix) || name.hasPrefix("builtin/") {
                diagnostics.append(Diagnostic(.error, file: file, message: "names starting with \"builtin\" are reserved for the built-in templates; rename this file"))
                failed = true
                continue
            }
            if BuiltinFiles.templates[name] != nil { overrides.insert(name) } else { additions.insert(name) }
            sources.append(Source(name: name, file: file, text: text))
        }

        var library = MustacheLibrary(escape: HTMLEscaping.append)
        var parsed: [String: (template: MustacheTemplate, source: Source)] = [:]
        // For the linter: every template by its file, and the file each name reaches.
        var files: [String: MustacheTemplate] = [:]
        var names: [String: String] = [:]
        for source in sources {
            do {
                let template = try MustacheTemplate(source.text, file: source.file)
                parsed[source.name] = (template, source)  // a site file replaces the built-in
                files[source.file] = template
                if source.builtin {
                    library.register(template, named: builtinPrefix + dotted(source.name))
                    names[builtinPrefix + dotted(source.name)] = source.file
                }
            } catch {
                diagnostics.append(Diagnostic(
                    .error, file: source.file, line: error.line, column: error.column,
                    message: "template syntax: \(error.message) in \(Diagnostic.quoted(error.lineText.trimmingCharacters(in: .whitespaces)))"))
                failed = true
            }
        }
        // The dotted names first, then the paths: a site's `cards.short_news.mustache` and the
        // built-in `cards/short_news` both answer to "cards.short_news", and the path wins, the
        // same in every run.
        for (name, entry) in parsed.sorted(by: { $0.key < $1.key }) {
            library.register(entry.template, named: dotted(name))
            names[dotted(name)] = entry.source.file
        }
        for (name, entry) in parsed.sorted(by: { $0.key < $1.key }) {
            library.register(entry.template, named: name)
            names[name] = entry.source.file
        }
        // A format's template that is not there would make an empty file: the binary was built
        // without it (a file under templates/ is embedded by Plugins/EmbedFiles).
        for format in OutputFormat.all {
            guard let template = format.template, parsed[template] == nil else { continue }
            diagnostics.append(Diagnostic(
                .error, file: "(built-in) templates/\(template).mustache",
                message: "the template of \(format.name) (\(format.fileName)) is missing: add templates/\(template).mustache"))
            failed = true
        }
        if failed { return nil }
        if let cardPage = parsed[cardPageTemplate]?.source, !cardPage.builtin { warnOfSearchAttributes(in: cardPage, &diagnostics) }

        let problems = TemplateLinter(templates: files, names: names).check()
        problems.forEach { diagnostics.append($0) }
        if problems.contains(where: { $0.severity == .error }) { return nil }
        let fingerprint = StableHasher.hash { hasher in
            for (name, entry) in parsed.sorted(by: { $0.key < $1.key }) {
                hasher.combine(name)
                hasher.combine(entry.source.text)
            }
        }
        var set = TemplateSet(library: library, overrides: overrides, additions: additions, fingerprint: fingerprint)
        set.cardFingerprints = cardFingerprints(set.cardTemplates.keys, files: files, texts: Dictionary(sources.map { ($0.file, $0.text) }) { $1 }, names: names)
        if let source = parsed[searchDocumentTemplate]?.source { set.searchDocumentFile = source.file }
        for (name, entry) in parsed where name.hasPrefix("cards/") && !entry.source.builtin && !showsImage(entry.source.text) {
            set.cardTemplatesWithoutImage[String(name.dropFirst("cards/".count))] = entry.source.file
        }
        return set
    }

    /// Pagefind reads each card's `search_document` in place of its page: the attributes of a
    /// site's own `card_page` that once told it what to read (as CardFeed's own did, and its
    /// docs told sites to add a sort key there) now reach no index, which the site is told.
    private static func warnOfSearchAttributes(in cardPage: Source, _ diagnostics: inout Diagnostics) {
        guard let found = cardPage.text.range(of: "data-pagefind") else { return }
        let before = cardPage.text[..<found.lowerBound]
        let line = before.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
        let column = before.count - (before.lastIndex(of: "\n").map { before.distance(from: before.startIndex, to: $0) + 1 } ?? 0) + 1
        diagnostics.append(Diagnostic(
            .warning, file: cardPage.file, line: line, column: column,
            message: "search reads the template \(searchDocumentTemplate), not the card's page: Pagefind's attributes here reach no index; move them to templates/\(searchDocumentTemplate).mustache (`cardfeed eject \(searchDocumentTemplate)` copies the built-in one)"))
    }

    /// Whether a card template's text shows the card's image: it names it, or extends a built-in
    /// card template other than the frame (`card`), each of which shows it. Read from the text:
    /// a template that names `image` only to leave it out is taken at its word.
    static func showsImage(_ text: String) -> Bool {
        text.contains("image") || text.range(of: #"\{\{<\s*(builtin\.)?cards[./]"#, options: .regularExpression) != nil
    }

    /// The file of the template a card is rendered with when that is one of the site's that
    /// shows no image (see `cardTemplatesWithoutImage`); nil otherwise.
    package func fileShowingNoImage(for card: Card) -> String? {
        if let name = card.templateName, cardTemplates[name] != nil { return cardTemplatesWithoutImage[name] }
        return cardTemplatesWithoutImage[card.type.rawValue]
    }

    /// Whether the site has a card template of this name (`cards/<name>`).
    package func hasCardTemplate(_ name: String) -> Bool { cardTemplates[name] != nil }

    /// The template for a card: the site template its `template` extra names, if there is one,
    /// else its type's.
    /// The fingerprint of the templates `card` renders through (`cardFingerprints`), chosen
    /// as `template(for:)` chooses.
    func fingerprint(for card: Card) -> Int {
        if let name = card.templateName, cardTemplates[name] != nil { return cardFingerprints[name] ?? fingerprint }
        return cardFingerprints[card.type.rawValue] ?? fingerprint
    }

    private static func cardFingerprints(_ cards: some Sequence<String>, files: [String: MustacheTemplate], texts: [String: String], names: [String: String]) -> [String: Int] {
        var fingerprints: [String: Int] = [:]
        for card in cards {
            guard let start = names["cards/" + card] else { continue }
            var reached: Set<String> = []
            var missing: Set<String> = []
            var stack = [start]
            while let file = stack.popLast() {
                guard reached.insert(file).inserted, let template = files[file] else { continue }
                for tag in template.tags where tag.kind == .partial || tag.kind == .parent {
                    if let target = names[tag.name] { stack.append(target) } else { missing.insert(tag.name) }
                }
            }
            fingerprints[card] = StableHasher.hash { hasher in
                for file in reached.sorted() {
                    hasher.combine(file)
                    hasher.combine(texts[file] ?? "")
                }
                hasher.combine(missing.sorted())
            }
        }
        return fingerprints
    }

    private func template(for card: Card) -> MustacheName? {
        if let name = card.templateName, let template = cardTemplates[name] { return template }
        return cardTemplates[card.type.rawValue]
    }

    /// What the templates may do to render one card: some 4,000 times what a built-in card
    /// template writes for the largest card Braze allows, and 10,000 times the steps.
    public static let cardBudget = MustacheBudget(bytes: 8 << 20, steps: 1_000_000)
    /// What the page template may do to render one page around its cards, and again for each
    /// card its `{{#cards}}` section shows when the section does more than write the card.
    public static let pageBudget = MustacheBudget(bytes: 16 << 20, steps: 1_000_000)

    /// The card's HTML as UTF-8 bytes, which go to its pages as they are; rendered in
    /// `scratch`, which keeps its memory for the next card.
    /// (The view comes made into its object: a `CardView` passed here and wrapped would be
    /// copied, the card's every field retained and released again, for every card.)
    func render(_ view: TemplateObject<CardView>, using scratch: inout MustacheBytes) throws(TemplateFailure) -> [UInt8] {
        guard let template = template(for: view.model.card) else { return [] }
        do {
            scratch.removeAll()
            _ = try library.render(template, .object(view), budget: Self.cardBudget, onto: &scratch)
            return scratch.array
        } catch {
            throw failure(error, card: view.model.card)
        }
    }

    /// The page's text, with a hole where `{{#cards}}` stands.
    func render(_ view: PageView) throws(TemplateFailure) -> MustacheOutput {
        guard let page else { return MustacheOutput(bytes: [], holes: []) }
        do {
            return try library.render(page, .view(view), capacity: 8192, budget: Self.pageBudget)
        } catch {
            throw failure(error, card: nil)
        }
    }

    /// `card`'s own page, or with `searchDocument` what the search index reads in its place,
    /// rendered onto the end of `out` within the budget of a page; its failure is the card's
    /// (its data chose the way through the template).
    func render(_ view: TemplateObject<CardPageView>, card: Card, searchDocument: Bool = false, onto out: inout MustacheBytes) throws(TemplateFailure) {
        guard let template = searchDocument ? self.searchDocument : cardPage else { return }
        do {
            _ = try library.render(template, .object(view), budget: Self.pageBudget, onto: &out)
        } catch {
            throw failure(error, card: card, onPage: true)
        }
    }

    /// The template `name` (a feed, the sitemap, a feed entry) rendered onto the end of `out`
    /// with `view` as its context, escaping for the language it writes.
    func render(_ name: String, _ view: some TemplateModel, onto out: inout MustacheBytes) throws(TemplateFailure) {
        let escaping = Self.escaping(forTemplate: name)
        let library = escaping == .html ? library : otherLibraries[escaping]!
        guard let template = library.name(of: name) else {
            throw TemplateFailure(message: "no template named \(Diagnostic.quoted(name)): the file would be empty")
        }
        do {
            _ = try library.render(template, .view(view), onto: &out)
        } catch {
            throw failure(error, card: nil)
        }
    }

    /// A render's error as the build reports it: at the card (its data chose the way through
    /// the templates) or the page, naming the template and tag it was at and the limit it went
    /// past. `onPage`: the error happened rendering a page (a card's own, when `card` is given).
    func failure(_ error: MustacheRenderError, card: Card?, onPage: Bool = false) -> TemplateFailure {
        let limit = error.limit == .depth(MustacheLibrary.maximumDepth) ? "" : card == nil || onPage ? ", the limit for a page" : ", the limit for a card"
        return TemplateFailure(card: card, message: error.message + limit, templateFile: error.file, line: error.line, column: error.column)
    }
}

/// A template that cannot be rendered for a card or a page.
package struct TemplateFailure: Error, CustomStringConvertible {
    package var card: Card?
    package var message: String
    /// The template file the renderer was in (as shown to the user), when known, and the line
    /// and column of the tag it was at there.
    package var templateFile: String?
    package var line: Int?
    package var column: Int?
    package var description: String { message }

    /// `site/templates/partials/a.mustache:3:7`: the file and, when known, the tag's place.
    package var templatePlace: String? {
        guard let templateFile else { return nil }
        guard let line, let column else { return templateFile }
        return "\(templateFile):\(line):\(column)"
    }
}
