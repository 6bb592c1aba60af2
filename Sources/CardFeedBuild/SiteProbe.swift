import Foundation
import Logging
import CardFeedModel
import CardFeedWrite

/// A whole build of a small fixed site in which one file is given as bytes: the card file,
/// `cardfeed.yml` or the card template. It runs `SiteBuilder`, the same steps as `cardfeed build`
/// (configuration, load, rules, select, render, theme, assets, `static/`, feeds), into memory.
/// The fuzz target (`Sources/CardFeedFuzz`, CARDFEED_FUZZ_TARGET=cards, config or templates)
/// feeds it arbitrary bytes; tests replay what it found.
///
/// The card template's bytes may hold partials too: each line `----` ends one template and
/// begins the next, `partials/p1`, `partials/p2` and so on, which the first (and each other)
/// can include (`{{>partials/p1}}`).
package enum SiteProbe {
    package enum File: String, Sendable, CaseIterable {
        case cards = "cards.json"
        case config = "cardfeed.yml"
        case cardTemplate = "templates/card.mustache"
    }

    /// What one build produced.
    package struct Output {
        /// Every warning and error, as the build reported them.
        package var diagnostics: [Diagnostic] = []
        /// Every file of the output (pages, feeds, sitemap, assets, `static/`), by path; empty
        /// when the build failed.
        package var files: [String: [UInt8]] = [:]
        /// Why the probe itself could not run (its folder could not be written), nil when it ran.
        package var notRun: String?
    }

    /// The site's files besides the probed one. The cards have one of each type, with the extras
    /// and fields that templates and rules read; the configuration has a rule of each kind, a
    /// theme, link settings and a base URL (so that feeds and the sitemap are made).
    private static let defaults: [File: String] = [
        .cards: """
            [{"id": "a", "type": "classic", "created": 1700000000, "title": "Classic", "description": "Text **bold** [link](https://x.test)", "url": "https://x.test", "categories": ["news"], "extras": {"background_color": "#fff"}},
             {"id": "b", "type": "captioned_image", "created": 1700000100, "title": "Captioned", "description": "d", "image": "https://x.test/i.png", "aspect_ratio": 1.5, "pinned": true},
             {"id": "c", "type": "banner_image", "created": 1700000200, "image": "images/a.png", "url": "https://x.test/b"},
             {"id": "d", "type": "text_announcement", "created": 1700000300, "title": "Text", "description": "d", "categories": ["social", "advertising"]},
             {"id": "e", "type": "cross_promotion_small", "created": 1700000400, "title": "App", "subtitle": "s", "caption": "c", "rating": 4.5, "reviews": 100, "price": 1.99, "url": "https://x.test/app"}]
            """,
        .config: """
            title: Probe
            page_size: 3
            base_url: https://probe.example/
            theme:
              accent: "#b45309"
            rules:
              - name: Pin one
                match: {id: a}
                pin: true
              - name: Hide internal
                match:
                  extras: {audience: internal}
                hide: true
              - name: Banners are announcements
                match: {type: banner_image}
                category: announcements
              - name: Retitle
                match: {id: "e*"}
                set: {title: Renamed}
            links:
              new_tab: ["partner.example", "*.example.com"]
              app_schemes: [myapp]

            """,
    ]

    /// The files that never change: an image in `assets/` and a file in `static/`.
    private static let fixedFiles: [String: Data] = [
        "assets/images/a.png": Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")!,
        "static/robots.txt": Data("User-agent: *\n".utf8),
    ]

    /// A folder of this process's own, made once; each run rewrites the variable files.
    private static let root: URL? = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cardfeed-probe-\(ProcessInfo.processInfo.processIdentifier)")
        for (path, data) in fixedFiles {
            let url = root.appendingPathComponent(path)
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard (try? data.write(to: url)) != nil else { return nil }
        }
        try? FileManager.default.createDirectory(at: root.appendingPathComponent("templates"), withIntermediateDirectories: true)
        return root
    }()

    /// One run at a time: every run rewrites the same folder.
    private static let lock = NSLock()

    /// Builds the site with `bytes` as `file`, the others as `defaults` has them.
    package static func run(_ bytes: Data, as file: File) -> Output {
        lock.withLock { runAlone(bytes, as: file) }
    }

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

    private static func runAlone(_ bytes: Data, as file: File) -> Output {
        guard let root else { return Output(notRun: "cannot make the probe's site folder") }
        let partials = root.appendingPathComponent("templates/partials")
        try? FileManager.default.removeItem(at: partials)
        var written: [(path: String, bytes: Data)] = []
        for other in File.allCases {
            try? FileManager.default.removeItem(at: root.appendingPathComponent(other.rawValue))
            if other != file, let text = defaults[other] { written.append((other.rawValue, Data(text.utf8))) }
        }
        if file == .cardTemplate {
            let pieces = templates(in: bytes)
            written.append((file.rawValue, pieces[0]))
            written += pieces.dropFirst().enumerated().map { ("templates/partials/p\($0.offset + 1).mustache", $0.element) }
            if pieces.count > 1 { try? FileManager.default.createDirectory(at: partials, withIntermediateDirectories: true) }
        } else {
            written.append((file.rawValue, bytes))
        }
        for (path, data) in written where (try? data.write(to: root.appendingPathComponent(path))) == nil {
            return Output(notRun: "cannot write \(path)")
        }
        let options = BuildOptions(site: SiteFolder(root.path), now: 1_800_000_000)
        let memory = MemoryOutput()
        var quiet = Logger(label: "cardfeed-probe")
        quiet.logLevel = .critical
        do {
            let report = try SiteBuilder(options: options, destination: .memory(memory), logger: quiet).run()
            return Output(diagnostics: report.diagnostics.all, files: memory.files)
        } catch {
            return Output(diagnostics: error.report.diagnostics.all)
        }
    }
}
