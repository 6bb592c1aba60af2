import Foundation
import Logging

/// A whole `cardfeed check` of a small fixed site in which one file is given as bytes:
/// `cardfeed.yml` or the card template. The fuzz target (`Sources/CardFeedFuzz`, with
/// CARDFEED_FUZZ_TARGET=config or templates) feeds it arbitrary bytes; tests replay what it found.
///
/// The card template's bytes may hold partials too: each line `----` ends one template and
/// begins the next, `partials/p1`, `partials/p2` and so on, which the first (and each other)
/// can include (`{{>partials/p1}}`).
@_spi(Fuzzing) public enum SiteFileProbe {
    public enum File: String, Sendable {
        case config = "cardfeed.yml"
        case cardTemplate = "templates/card.mustache"
    }

    /// The site: one card of each type, with the extras and fields that templates and rules read.
    private static let cards = """
        [{"id": "a", "type": "classic", "created": 1700000000, "title": "Classic", "description": "Text **bold** [link](https://x.test)", "url": "https://x.test", "categories": ["news"], "extras": {"background_color": "#fff"}},
         {"id": "b", "type": "captioned_image", "created": 1700000100, "title": "Captioned", "description": "d", "image": "https://x.test/i.png", "aspect_ratio": 1.5, "pinned": true},
         {"id": "c", "type": "banner_image", "created": 1700000200, "image": "https://x.test/b.png", "url": "https://x.test/b"},
         {"id": "d", "type": "text_announcement", "created": 1700000300, "title": "Text", "description": "d", "categories": ["social", "advertising"]},
         {"id": "e", "type": "cross_promotion_small", "created": 1700000400, "title": "App", "subtitle": "s", "caption": "c", "rating": 4.5, "reviews": 100, "price": 1.99, "url": "https://x.test/app"}]
        """

    /// A folder of this process's own, made once; each run rewrites the probed file.
    private static let root: URL? = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cardfeed-probe-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: root.appendingPathComponent("templates"), withIntermediateDirectories: true)
        guard (try? Data(cards.utf8).write(to: root.appendingPathComponent("cards.json"))) != nil else { return nil }
        return root
    }()

    /// The templates in the bytes of a probed card template: split at each line `----`.
    static func templates(in bytes: Data) -> [Data] {
        let separator = Data("\n----\n".utf8)
        var pieces: [Data] = []
        var rest = bytes[...]
        while let range = rest.range(of: separator) {
            pieces.append(Data(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        return pieces + [Data(rest)]
    }

    /// Checks the site with `bytes` as `file`; returns every warning and error, or why the
    /// probe could not run.
    public static func run(_ bytes: Data, as file: File) -> [Diagnostic] {
        guard let root else { return [Diagnostic(.error, file: "probe", message: "cannot make the probe's site folder")] }
        for other in [File.config, .cardTemplate] { try? FileManager.default.removeItem(at: root.appendingPathComponent(other.rawValue)) }
        let partials = root.appendingPathComponent("templates/partials")
        try? FileManager.default.removeItem(at: partials)
        var files = [(path: file.rawValue, bytes: bytes)]
        if file == .cardTemplate {
            let pieces = Self.templates(in: bytes)
            files = [(file.rawValue, pieces[0])] + pieces.dropFirst().enumerated().map { ("templates/partials/p\($0.offset + 1).mustache", $0.element) }
            if pieces.count > 1 { try? FileManager.default.createDirectory(at: partials, withIntermediateDirectories: true) }
        }
        for (path, bytes) in files {
            guard (try? bytes.write(to: root.appendingPathComponent(path))) != nil else {
                return [Diagnostic(.error, file: "probe", message: "cannot write the probed file \(path)")]
            }
        }
        let options = BuildOptions(site: SiteFolder(root.path), now: 1_800_000_000, baseURL: "https://probe.example/", write: false)
        var quiet = Logger(label: "cardfeed-probe")
        quiet.logLevel = .critical
        do {
            return try SiteBuilder(options: options, logger: quiet).run().diagnostics.all
        } catch {
            return error.report.diagnostics.all
        }
    }
}
