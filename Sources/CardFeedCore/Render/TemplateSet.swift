import Foundation
import Mustache

/// The templates a site renders with: the built-ins, each replaced by the site's file of the
/// same path under `SITE/templates/`, and every built-in also reachable as `builtin.<name>` so
/// that a site template can extend the original through Mustache inheritance
/// (`{{<builtin.cards.short_news}}...{{/builtin.cards.short_news}}`) instead of copying it.
///
/// Every template is registered under its path ("cards/short_news") and under the same name
/// with dots ("cards.short_news"): swift-mustache reads a closing tag's name without slashes,
/// so a parent tag, which must be closed, can only name a template the dotted way.
public struct TemplateSet: Sendable {
    public static let builtinPrefix = "builtin."

    /// "cards/short_news" -> "cards.short_news".
    public static func dotted(_ name: String) -> String { name.replacingOccurrences(of: "/", with: ".") }
    /// The page template and the shared card frame every card type extends.
    public static let pageTemplate = "page"

    public static func cardTemplate(_ type: CardType) -> String { "cards/\(type.rawValue)" }

    public let library: MustacheLibrary
    /// Names of templates that come from the site (relative path without `.mustache`).
    public let overrides: Set<String>
    /// Template names the site added that replace no built-in.
    public let additions: Set<String>
    /// A hash of every template's name and text: a card rendered before with the same one
    /// renders the same again.
    let fingerprint: Int

    /// Loads and checks every template; problems are added to `diagnostics`. Returns nil when
    /// a template cannot be used (a parse error or a missing partial).
    public static func load(site: SiteFolder, diagnostics: inout Diagnostics) -> TemplateSet? {
        var library = MustacheLibrary()
        var sources: [(name: String, file: String, text: String)] = []
        var failed = false

        for (name, text) in BuiltinFiles.templates.sorted(by: { $0.key < $1.key }) {
            sources.append((name, "(built-in) templates/\(name).mustache", text))
        }
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
            sources.append((name, file, text))
        }

        var parsed: [String: (template: MustacheTemplate, file: String, text: String)] = [:]
        _ = FastHTMLContentType.registered
        for source in sources {
            do {
                let template = try MustacheTemplate(string: FastHTMLContentType.pragma + source.text)
                parsed[source.name] = (template, source.file, source.text)  // a site file replaces the built-in
                if source.file.hasPrefix("(built-in)") {
                    library.register(template, named: builtinPrefix + dotted(source.name))
                }
            } catch let error as MustacheTemplate.ParserError {
                // The pragma takes a line of its own that the file does not have.
                diagnostics.append(Diagnostic(
                    .error, file: source.file, line: max(1, error.context.lineNumber - 1), column: error.context.columnNumber,
                    message: "template syntax: \(TemplateLinter.describe(error.error)) in \(Diagnostic.quoted(error.context.line.trimmingCharacters(in: .whitespaces)))"))
                failed = true
            } catch {
                diagnostics.append(Diagnostic(.error, file: source.file, message: "template syntax: \(error)"))
                failed = true
            }
        }
        for (name, entry) in parsed {
            library.register(entry.template, named: name)
            library.register(entry.template, named: dotted(name))
        }
        if failed { return nil }

        var known = Set(parsed.keys)
        known.formUnion(parsed.keys.map(dotted))
        known.formUnion(BuiltinFiles.templates.keys.map { builtinPrefix + dotted($0) })
        for (_, entry) in parsed.sorted(by: { $0.key < $1.key }) {
            let problems = TemplateLinter.check(entry.text, file: entry.file, templates: known)
            problems.forEach { diagnostics.append($0) }
            if problems.contains(where: { $0.severity == .error }) { failed = true }
        }
        var hasher = Hasher()
        for (name, entry) in parsed.sorted(by: { $0.key < $1.key }) {
            hasher.combine(name)
            hasher.combine(entry.text)
        }
        return failed ? nil : TemplateSet(library: library, overrides: overrides, additions: additions, fingerprint: hasher.finalize())
    }

    /// Whether the card is rendered by the built-in templates alone, which `BuiltinCardWriter`
    /// writes out without going through Mustache.
    func usesBuiltinTemplates(_ card: Card) -> Bool {
        template(for: card) == Self.cardTemplate(card.type)
            && !BuiltinCardWriter.templates(for: card.type).contains(where: overrides.contains)
    }

    /// Whether pages are rendered by the built-in page templates, which `BuiltinPageWriter` writes
    /// out without going through Mustache.
    var usesBuiltinPage: Bool { !BuiltinPageWriter.templates.contains(where: overrides.contains) }

    /// The template for a card: the site template its `template` extra names, if there is one,
    /// else its type's.
    func template(for card: Card) -> String {
        if let name = card.templateName, library.getTemplate(named: "cards/\(name)") != nil { return "cards/\(name)" }
        return Self.cardTemplate(card.type)
    }

    func render(_ name: String, _ object: Any) -> String {
        library.render(object, withTemplate: name) ?? ""
    }
}
