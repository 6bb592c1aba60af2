import CardFeedRender

/// The `Content-Type` of a served file: a file of an output format (`feed.xml`, `llms.txt`) the
/// media type its format declares, anything else its extension's.
enum ContentType {
    static let html = "text/html; charset=utf-8"

    static func of(path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let format = OutputFormat.named(name) { return format.mediaType }
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        return byExtension[ext] ?? "application/octet-stream"
    }

    private static let byExtension: [String: String] = [
        "html": html, "htm": html,
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
        "json": "application/json", "map": "application/json",
        "txt": "text/plain; charset=utf-8", "md": "text/plain; charset=utf-8",
        "xml": "application/xml", "rss": "application/rss+xml", "atom": "application/atom+xml",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "webp": "image/webp", "avif": "image/avif", "svg": "image/svg+xml", "ico": "image/x-icon",
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "mp4": "video/mp4", "webm": "video/webm", "mp3": "audio/mpeg", "pdf": "application/pdf",
        "webmanifest": "application/manifest+json", "wasm": "application/wasm",
    ]
}
