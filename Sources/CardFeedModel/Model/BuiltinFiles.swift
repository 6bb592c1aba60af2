import Foundation

/// The files that ship inside the binary, embedded at build time (the EmbedFiles plugin) from the
/// package's `templates/`, `assets/`, `strings/`, `scaffold/`, `serve/` and `embed/` folders.
public enum BuiltinFiles {
    /// Template name ("cards/short_news") -> source text.
    public static let templates: [String: String] = {
        var templates: [String: String] = [:]
        for (path, base64) in EmbeddedFiles.base64 where path.hasPrefix("templates/") && path.hasSuffix(".mustache") {
            let name = String(path.dropFirst("templates/".count).dropLast(".mustache".count))
            templates[name] = String(decoding: Data(base64Encoded: base64) ?? Data(), as: UTF8.self)
        }
        return templates
    }()

    /// Paths relative to `assets/` of the built-in assets, sorted.
    public static var assetPaths: [String] {
        EmbeddedFiles.base64.keys.filter { $0.hasPrefix("assets/") }.map { String($0.dropFirst("assets/".count)) }.sorted()
    }

    public static func asset(_ path: String) -> Data? {
        EmbeddedFiles.base64["assets/" + path].flatMap { Data(base64Encoded: $0) }
    }

    /// The built-in string tables' locales, sorted.
    public static var stringLocales: [String] {
        EmbeddedFiles.base64.keys.filter { $0.hasPrefix("strings/") && $0.hasSuffix(".json") }
            .map { String($0.dropFirst("strings/".count).dropLast(".json".count)) }.sorted()
    }

    /// `strings/<locale>.json`, when that locale is built in.
    package static func strings(_ locale: String) -> Data? {
        EmbeddedFiles.base64["strings/\(locale).json"].flatMap { Data(base64Encoded: $0) }
    }

    /// The site `cardfeed init` writes: paths relative to `scaffold/`, sorted.
    package static var scaffold: [(path: String, data: Data)] {
        EmbeddedFiles.base64.keys.filter { $0.hasPrefix("scaffold/") }.sorted().map { key in
            (String(key.dropFirst("scaffold/".count)), Data(base64Encoded: EmbeddedFiles.base64[key]!) ?? Data())
        }
    }

    /// A file of `embed/`: the script and stylesheet of the site's placements (`embed/` of the
    /// output), written only by a site that has `placements:`.
    package static func embedFile(_ name: String) -> Data? {
        EmbeddedFiles.base64["embed/" + name].flatMap { Data(base64Encoded: $0) }
    }

    /// A file of `serve/`: what `cardfeed serve` adds to the pages it serves (its live-reload
    /// script and stylesheet), never copied into a built site.
    public static func serveFile(_ name: String) -> Data? {
        EmbeddedFiles.base64["serve/" + name].flatMap { Data(base64Encoded: $0) }
    }
}

/// CardFeed's version, read from the package's `VERSION` file (embedded with the templates), which
/// is also what names the Debian package, the archive and the GitHub Action's download.
public enum CardFeedVersion {
    public static let current: String = {
        let text = EmbeddedFiles.base64["VERSION"].flatMap { Data(base64Encoded: $0) }.map { String(decoding: $0, as: UTF8.self) }
        return text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown"
    }()
}
