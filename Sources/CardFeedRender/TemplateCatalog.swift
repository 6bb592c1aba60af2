import Foundation
import CardFeedModel

/// The built-in templates as a site sees them: which ones it overrides, and copying one into
/// the site to edit it (`cardfeed eject`).
public struct TemplateCatalog: Sendable {
    public enum State: Sendable, Equatable { case builtin, overridden, added }

    public struct Entry: Sendable {
        public var name: String
        public var state: State
        /// The site's file, as shown to the user, when the site has one.
        public var siteFile: String?
        /// For an ejected copy: the version it was ejected from, and whether the built-in has
        /// changed since (so the copy may be missing a fix or a feature).
        public var ejectedFrom: String?
        public var builtinChanged = false
    }

    /// The first line `eject` writes: `{{! cardfeed eject: cards/short_news from CardFeed 0.1.0, built-in fnv1a64 0123456789abcdef }}`.
    static func stamp(name: String, text: String) -> String {
        "{{! cardfeed eject: \(name) from CardFeed \(CardFeedVersion.current), built-in fnv1a64 \(fingerprint(text)). `cardfeed templates` tells when the built-in changes. }}\n"
    }

    /// A stable 64-bit FNV-1a hash of the built-in's text, in hex.
    static func fingerprint(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The version and fingerprint of an ejected copy's stamp.
    static func readStamp(_ text: String) -> (version: String, fingerprint: String)? {
        guard let line = text.split(separator: "\n", maxSplits: 1).first,
            let range = line.range(of: #"from CardFeed (\S+), built-in fnv1a64 ([0-9a-f]{16})"#, options: .regularExpression)
        else { return nil }
        let parts = line[range].split(separator: " ")
        return (String(parts[2].dropLast()), String(parts[5]))
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
            guard siteNames.contains(name) else { return Entry(name: name, state: .builtin) }
            var entry = Entry(name: name, state: .overridden, siteFile: file(name))
            let url = site.templateFile(name)
            if let text = try? String(contentsOf: url, encoding: .utf8), let stamp = Self.readStamp(text) {
                entry.ejectedFrom = stamp.version
                entry.builtinChanged = stamp.fingerprint != Self.fingerprint(BuiltinFiles.templates[name] ?? "")
            }
            return entry
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
            // `short_news` for `cards/short_news`: the name without its folder is what people type.
            let inFolder = BuiltinFiles.templates.keys.sorted().first { $0.split(separator: "/").last.map(String.init) == name }
            let suggestion = inFolder.map { " (did you mean \(Diagnostic.quoted($0))?)" } ?? Diagnostic.suggestion(for: name, among: Set(BuiltinFiles.templates.keys))
            throw EjectError(description: "no built-in template named \(Diagnostic.quoted(requested))\(suggestion); the built-ins are: \(names)")
        }
        let url = site.templateFile(name)
        try checkInsideTemplates(url)
        if FileManager.default.fileExists(atPath: url.path) && !force {
            throw EjectError(description: "\(site.display(url)) exists already; edit it, or pass --force to replace it with the built-in")
        }
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data((Self.stamp(name: name, text: text) + text).utf8).write(to: url, options: .atomic)
        } catch {
            throw EjectError(description: "cannot write \(site.display(url)): \(error.localizedDescription)")
        }
        return site.display(url)
    }

    /// Eject writes only where a build reads: not through a `templates/` that links out of the
    /// site, which a build refuses, nor through a folder inside it that links out of
    /// `templates/` (`templates/cards -> /elsewhere`), which a build does not follow.
    private func checkInsideTemplates(_ url: URL) throws {
        let templates = site.templatesFolder
        if site.isLinkedOut(templates) {
            throw EjectError(description: "\(site.display(templates)) \(site.linkedOutProblem(templates)), so nothing was written (copy its files in, or make the link point inside the site)")
        }
        let folder = url.deletingLastPathComponent()
        guard SiteFolder.isWithin(SiteFolder.realPath(folder), SiteFolder.realPath(templates)) else {
            throw EjectError(description: "\(site.display(folder)) leads out of \(site.display(templates)) through a symbolic link, which a build does not follow, so nothing was written (replace the link with a folder)")
        }
    }

    private func file(_ name: String) -> String {
        site.display(site.templateFile(name))
    }
}
