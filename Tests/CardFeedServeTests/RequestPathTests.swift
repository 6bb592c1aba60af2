import Foundation
import Testing

@testable import CardFeedServe

/// Only files of the built site are served: every way of naming a file outside it is refused.
struct RequestPathTests {
    @Test(arguments: [
        "/../etc/passwd", "/../../etc/passwd", "/%2e%2e/etc/passwd", "/%2E%2E/%2e%2e/etc/passwd",
        "/news/..%2f..%2fetc/passwd", "/news/%2e%2e/%2e%2e/x", "//etc/passwd", "/%2f%2fetc/passwd",
        "/..\\..\\etc\\passwd", "/%5c..%5cetc", "/.cardfeed-output", "/news/./index.html",
        "http://example.com/index.html", "etc/passwd", "/a%00.html", "/%zz",
    ])
    func refusesPathsThatLeaveTheSite(_ raw: String) {
        #expect(RequestPath.segments(ofRawPath: raw) == nil)
    }

    @Test func decodesOrdinaryPaths() {
        #expect(RequestPath.segments(ofRawPath: "/") == [])
        #expect(RequestPath.segments(ofRawPath: "/news/page/2/") == ["news", "page", "2"])
        #expect(RequestPath.segments(ofRawPath: "/assets/images/my%20photo.png") == ["assets", "images", "my photo.png"])
    }

    @Test func resolvesFilesOnlyInsideTheRoot() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rp-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("news"), withIntermediateDirectories: true)
        try Data("a".utf8).write(to: root.appendingPathComponent("index.html"))
        try Data("n".utf8).write(to: root.appendingPathComponent("news/index.html"))
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("escape").path, withDestinationPath: "/etc")
        #expect(RequestPath.file([], under: root)?.url.lastPathComponent == "index.html")
        #expect(RequestPath.file(["news"], under: root)?.isFolderIndex == true)
        #expect(RequestPath.file(["missing.html"], under: root) == nil)
        #expect(RequestPath.file(["escape", "passwd"], under: root) == nil, "a symbolic link out of the build is not followed")
    }

    @Test func contentTypes() {
        #expect(ContentType.of(path: "a/index.html") == "text/html; charset=utf-8")
        #expect(ContentType.of(path: "assets/cardfeed.css") == "text/css; charset=utf-8")
        #expect(ContentType.of(path: "assets/cardfeed.js") == "text/javascript; charset=utf-8")
        #expect(ContentType.of(path: "x.PNG") == "image/png")
        #expect(ContentType.of(path: "x.svg") == "image/svg+xml")
        #expect(ContentType.of(path: "x.unknown") == "application/octet-stream")
        // A format's file is served as its format declares (Sources/CardFeedRender/OutputFormat.swift).
        #expect(ContentType.of(path: "news/feed.xml") == "application/atom+xml")
        #expect(ContentType.of(path: "feed.json") == "application/feed+json")
        #expect(ContentType.of(path: "llms.txt") == "text/plain; charset=utf-8")
        #expect(ContentType.of(path: "other.xml") == "application/xml")
    }
}
