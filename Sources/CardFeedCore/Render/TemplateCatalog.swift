import Foundation

/// The built-in templates as a site sees them: which ones it overrides, and copying one into
/// the site to edit it (`cardfeed eject`).
public struct TemplateCatalog: Sendable {
    public enum State: Sendable { case builtin, overridden, added }

    public struct Entry: Sendable {
        public var name: String
        public var state: State
        /// The site's file, as shown to the user, when the site has one.
        public var siteFile: String?
    }

    public struct EjectError: Error, CustomStringConvertible {
        public var description: String
    }

    public let site: SiteFolder

    public init(site: SiteFolder) {
        self.site = site
    }

    public var entries: [Entry] {
        let siteNames = Set(site.templateFiles().map { String($0.dropLast(".mustache".count)) })
        var entries = BuiltinFiles.templates.keys.sorted().map { name in
            Entry(name: name, state: siteNames.contains(name) ? .overridden : .builtin, siteFile: siteNames.contains(name) ? file(name) : nil)
        }
        entries += siteNames.subtracting(BuiltinFiles.templates.keys).sorted().map { Entry(name: $0, state: .added, siteFile: file($0)) }
        return entries
    }

    /// "templates/cards/short_news.mustache", "builtin.cards.short_news", "cards.short_news" -> "cards/short_news".
    public func normalised(_ name: String) -> String {
        var name = name
        if name.hasSuffix(".mustache") { name.removeLast(".mustache".count) }
        for prefix in ["templates/", TemplateSet.builtinPrefix] where name.hasPrefix(prefix) { name.removeFirst(prefix.count) }
        if BuiltinFiles.templates[name] == nil,
            let match = BuiltinFiles.templates.keys.first(where: { TemplateSet.dotted($0) == name })
        {
            return match
        }
        return name
    }

    /// Copies the built-in template into `SITE/templates/`; returns the file written.
    public func eject(_ requested: String, force: Bool) throws -> String {
        let name = normalised(requested)
        guard let text = BuiltinFiles.templates[name] else {
            let names = BuiltinFiles.templates.keys.sorted().joined(separator: ", ")
            throw EjectError(description: "no built-in template named \(Diagnostic.quoted(requested))\(TemplateLinter.suggestion(for: name, among: Set(BuiltinFiles.templates.keys))); the built-ins are: \(names)")
        }
        let url = site.templatesFolder.appendingPathComponent(name + ".mustache")
        if FileManager.default.fileExists(atPath: url.path) && !force {
            throw EjectError(description: "\(site.display(url)) exists already; edit it, or pass --force to replace it with the built-in")
        }
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw EjectError(description: "cannot write \(site.display(url)): \(error.localizedDescription)")
        }
        return site.display(url)
    }

    private func file(_ name: String) -> String {
        site.display(site.templatesFolder.appendingPathComponent(name + ".mustache"))
    }
}
