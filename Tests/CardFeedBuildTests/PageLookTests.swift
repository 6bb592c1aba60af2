import Foundation
import Testing
@testable import CardFeedLoad


/// What the page needs to look right and be shared: image sizes read from the files, a styled
/// card's colours, and the page head.
@Suite struct ImageSizeTests {
    static func png(_ width: UInt32, _ height: UInt32) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + be(width) + be(height) + [8, 6, 0, 0, 0]
    }

    @Test func png() {
        #expect(ImageSize.parse(Self.png(1200, 900)) == ImageSize(width: 1200, height: 900))
        #expect(ImageSize.parse(Array(Self.png(1200, 900).prefix(20))) == nil, "cut short")
    }

    @Test func jpegAfterAnAppSegment() {
        // SOI, an APP1 block of 20 bytes, then SOF2 (progressive): height 480, width 640.
        let app1: [UInt8] = [0xFF, 0xE1, 0x00, 0x14] + Array(repeating: 0x41, count: 18)
        let sof: [UInt8] = [0xFF, 0xC2, 0x00, 0x11, 0x08, 0x01, 0xE0, 0x02, 0x80, 0x03]
        #expect(ImageSize.parse([0xFF, 0xD8] + app1 + sof) == ImageSize(width: 640, height: 480))
        // A DHT segment (C4) is not a frame header.
        let dht: [UInt8] = [0xFF, 0xC4, 0x00, 0x04, 0x00, 0x00]
        #expect(ImageSize.parse([0xFF, 0xD8] + dht + sof) == ImageSize(width: 640, height: 480))
    }

    @Test func gif() {
        #expect(ImageSize.parse(Array("GIF89a".utf8) + [0x30, 0x00, 0x10, 0x00, 0, 0]) == ImageSize(width: 48, height: 16))
    }

    @Test func webpLossyLosslessAndExtended() {
        func riff(_ chunk: String, _ payload: [UInt8]) -> [UInt8] {
            Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8) + Array(chunk.utf8) + [0, 0, 0, 0] + payload
        }
        // VP8: frame tag (3), start code (3), then 14-bit width and height.
        let lossy = riff("VP8 ", [0, 0, 0, 0x9D, 0x01, 0x2A, 0x20, 0x03, 0x58, 0x02] + [0, 0])
        #expect(ImageSize.parse(lossy) == ImageSize(width: 800, height: 600))
        // VP8L: signature 0x2F, then width-1 and height-1 in 14 bits each: 100 x 50.
        let bits: UInt32 = 99 | 49 << 14
        let lossless = riff("VP8L", [0x2F, UInt8(bits & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 24)] + [0, 0, 0, 0, 0])
        #expect(ImageSize.parse(lossless) == ImageSize(width: 100, height: 50))
        // VP8X: flags and reserved (4), then canvas width-1 and height-1 in 24 bits: 4000 x 3000.
        let extended = riff("VP8X", [0, 0, 0, 0, 0x9F, 0x0F, 0x00, 0xB7, 0x0B, 0x00] + [0, 0])
        #expect(ImageSize.parse(extended) == ImageSize(width: 4000, height: 3000))
    }

    @Test func svgSizeOrViewBox() {
        func svg(_ text: String) -> ImageSize? { ImageSize.parse(Array(text.utf8)) }
        #expect(svg("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"120px\" height='80'>") == ImageSize(width: 120, height: 80))
        #expect(svg("<svg viewBox=\"0 0 300 150\" xmlns=\"http://www.w3.org/2000/svg\"></svg>") == ImageSize(width: 300, height: 150))
        #expect(svg("<svg width=\"100%\" height=\"100%\" viewBox=\"0,0,64,32\">") == ImageSize(width: 64, height: 32), "percentages: the viewBox")
        #expect(svg("<svg width=\"200\" viewBox=\"0 0 100 50\">") == ImageSize(width: 200, height: 100), "one side and the proportions")
        #expect(svg("<svg>") == nil)
        #expect(svg("<html><body>not an image") == nil)
    }

    @Test func otherFilesHaveNoSize() {
        #expect(ImageSize.parse(Array("%PDF-1.7".utf8)) == nil)
        #expect(ImageSize.parse([]) == nil)
        #expect(ImageSize.parse(Self.png(0, 10)) == nil, "an empty image")
    }

    /// A card without an aspect ratio gets the size of its local file, a small one is marked,
    /// and one with an aspect ratio and a remote image keeps the ratio's box.
    @Test func imagesCarryTheirFilesSize() throws {
        let site = try TempSite([
            "cards.json": """
            [{"id": "big", "type": "captioned_image", "created": 1, "title": "T", "description": "D", "image": "images/big.png"},
             {"id": "tiny", "type": "captioned_image", "created": 2, "title": "T", "description": "D", "image": "images/tiny.gif"},
             {"id": "vector", "type": "banner_image", "created": 3, "image": "images/logo.svg"},
             {"id": "remote", "type": "banner_image", "created": 4, "image": "https://x.test/a.png", "aspect_ratio": 2}]
            """,
            "assets/images/logo.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 640 160\"></svg>",
        ])
        defer { site.remove() }
        try site.write("assets/images/big.png", Data(Self.png(1200, 2700)))
        try site.write("assets/images/tiny.gif", Data(Array("GIF89a".utf8) + [48, 0, 48, 0, 0, 0, 0]))
        #expect(site.build().succeeded)
        let page = try site.read("index.html")
        #expect(page.contains("<img class=\"card__image\" src=\"assets/images/big.png\" alt=\"\" width=\"1200\" height=\"2700\""))
        #expect(page.contains("<img class=\"card__image card__image--small\" src=\"assets/images/tiny.gif\" alt=\"\" width=\"48\" height=\"48\""))
        #expect(page.contains("src=\"assets/images/logo.svg\" alt=\"\" width=\"640\" height=\"160\""))
        #expect(page.contains("src=\"https://x.test/a.png\" alt=\"x.test\" width=\"1200\" height=\"600\"") || page.contains("src=\"https://x.test/a.png\" alt=\"\" width=\"1200\" height=\"600\""))
    }
}

@Suite struct CardStyleTests {
    static func styles(_ extras: [String: String]) throws -> String {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: extras), as: UTF8.self)
        let site = try TempSite(["cards.json": "[{\"id\": \"s\", \"type\": \"text_announcement\", \"created\": 1, \"description\": \"D\", \"extras\": \(json)}]"])
        defer { site.remove() }
        #expect(site.build().succeeded)
        return try site.read("assets/card-styles.css")
    }

    @Test func onlyABackgroundPicksTheTextForContrast() throws {
        let css = try Self.styles(["background_color": "#fef3c7"])
        #expect(css.contains("--cf-surface: #fef3c7;"))
        #expect(css.contains("--cf-text: lch(from #fef3c7 calc((49.44 - l) * infinity) 0 0);"))
        #expect(css.contains("--cf-muted: lch(from #fef3c7 calc((49.44 - l) * infinity) 0 0);"))
        #expect(css.contains("--cf-link: var(--cf-text);"), "links and chips in the text colour")
    }

    @Test func onlyATextColourPicksTheBackground() throws {
        let css = try Self.styles(["text_color": "navy"])
        #expect(css.contains("--cf-text: navy;"))
        #expect(css.contains("--cf-surface: lch(from navy calc((49.44 - l) * infinity) 0 0);"), "else the dark theme's surface would be under navy text")
    }

    @Test func anAccentGetsAButtonLabelThatContrasts() throws {
        let css = try Self.styles(["accent_color": "#fbbf24"])
        #expect(css.contains("--cf-accent: #fbbf24;"))
        #expect(css.contains("--cf-accent-text: lch(from #fbbf24 calc((49.44 - l) * infinity) 0 0);"))
        #expect(!css.contains("--cf-surface"), "the theme's background and text stay")
        #expect(css.contains("--cf-link: var(--cf-text);"), "the accent is never text on the background")
    }
}

@Suite struct PageHeadTests {
    static let cards = "[{\"id\": \"a\", \"type\": \"text_announcement\", \"created\": 1, \"description\": \"D\", \"categories\": [\"news\"]}]"

    @Test func descriptionCanonicalAndLinkPreviews() throws {
        let site = try TempSite([
            "cards.json": Self.cards,
            "cardfeed.yml": "title: Brewline\ndescription: News & offers from Brewline\nimage: images/share.png\nbase_url: https://brewline.example/\n",
        ])
        defer { site.remove() }
        #expect(site.build().succeeded)
        let page = try site.read("news/index.html")
        #expect(page.contains("<meta name=\"description\" content=\"News &amp; offers from Brewline\">"))
        #expect(page.contains("<link rel=\"canonical\" href=\"https://brewline.example/news/\">"))
        #expect(page.contains("<meta property=\"og:title\" content=\"News · Brewline\">"))
        #expect(page.contains("<meta property=\"og:url\" content=\"https://brewline.example/news/\">"))
        #expect(page.contains("<meta property=\"og:image\" content=\"https://brewline.example/assets/images/share.png\">"))
        #expect(page.contains("<meta name=\"twitter:card\" content=\"summary_large_image\">"))
        #expect(page.contains("<meta name=\"twitter:description\" content=\"News &amp; offers from Brewline\">"))
        #expect(page.contains("<link rel=\"icon\" href=\"assets/favicon.svg\" type=\"image/svg+xml\">"))
        #expect(site.exists("public/assets/favicon.svg"))
    }

    @Test func withoutABaseURLThereAreNoAbsoluteLinks() throws {
        let site = try TempSite(["cards.json": Self.cards, "cardfeed.yml": "title: Brewline\n"])
        defer { site.remove() }
        #expect(site.build().succeeded)
        let page = try site.read("news/index.html")
        #expect(page.contains("<meta name=\"description\" content=\"Brewline · News · Jan 1, 1970\">"), "each page describes itself")
        #expect(!page.contains("rel=\"canonical\""))
        #expect(!page.contains("og:"))
    }

    @Test func aSitesOwnFavicon() throws {
        let site = try TempSite(["cards.json": Self.cards])
        defer { site.remove() }
        try site.write("assets/favicon.png", Data(ImageSizeTests.png(32, 32)))
        #expect(site.build().succeeded)
        #expect(try site.read("index.html").contains("<link rel=\"icon\" href=\"assets/favicon.png\" type=\"image/png\">"))
    }

    @Test func aShareImageOutsideAssetsIsAnError() throws {
        let site = try TempSite(["cards.json": Self.cards, "cardfeed.yml": "image: ../secret.png\n"])
        defer { site.remove() }
        let report = site.build()
        #expect(report.diagnostics.lines.contains { $0.contains("image") && $0.contains("must be a file of assets/") })
    }
}
