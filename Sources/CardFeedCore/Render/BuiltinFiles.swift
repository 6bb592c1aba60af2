import Foundation

/// The templates and assets that ship inside the binary (embedded at build time from the
/// package's `templates/` and `assets/` folders).
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
}
