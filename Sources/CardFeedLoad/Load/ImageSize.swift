import Foundation
import Synchronization

/// The pixel size of an image file, read from its header: PNG, JPEG, GIF, WebP (lossy, lossless
/// and extended) and SVG (its width and height, else its viewBox). Cards rarely carry an
/// `aspect_ratio`; with the size, every `<img>` gets `width` and `height`, so the page does not
/// shift as images arrive, and a small image need not be scaled up.
public struct ImageSize: Sendable, Hashable {
    public let width: Int
    public let height: Int

    /// Header bytes read at first; a JPEG whose frame header comes after a large EXIF block or
    /// an SVG with a long prologue is read further, up to `maximumRead`.
    static let firstRead = 4096
    static let maximumRead = 1 << 20

    /// The size of the file at `url`, or nil when it is no image of these kinds or is damaged.
    public static func read(_ url: URL) -> ImageSize? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        var data = (try? handle.read(upToCount: firstRead)) ?? Data()
        if let size = parse([UInt8](data)) { return size }
        // Only a JPEG or an SVG can need more than the first bytes.
        let bytes = [UInt8](data.prefix(16))
        guard bytes.starts(with: [0xFF, 0xD8]) || looksLikeText(bytes), data.count == firstRead else { return nil }
        if let rest = try? handle.read(upToCount: maximumRead - firstRead) { data.append(rest) }
        return parse([UInt8](data))
    }

    /// The size from the first bytes of a file.
    public static func parse(_ bytes: [UInt8]) -> ImageSize? {
        let size: ImageSize?
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            size = png(bytes)
        } else if bytes.starts(with: [0xFF, 0xD8]) {
            size = jpeg(bytes)
        } else if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            size = bytes.count >= 10 ? ImageSize(width: le16(bytes, 6), height: le16(bytes, 8)) : nil
        } else if bytes.count >= 16, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            size = webp(bytes)
        } else if looksLikeText(bytes) {
            size = svg(bytes)
        } else {
            size = nil
        }
        guard let size, size.width > 0, size.height > 0 else { return nil }
        return size
    }

    private static func png(_ b: [UInt8]) -> ImageSize? {
        // The IHDR chunk comes first: length, "IHDR", width, height.
        guard b.count >= 24, Array(b[12..<16]) == Array("IHDR".utf8) else { return nil }
        return ImageSize(width: be32(b, 16), height: be32(b, 20))
    }

    private static func jpeg(_ b: [UInt8]) -> ImageSize? {
        var i = 2
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }  // no length
            let length = be16(b, i + 2)
            guard length >= 2 else { return nil }
            // Start of frame: every SOFn except DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard i + 9 <= b.count else { return nil }
                return ImageSize(width: be16(b, i + 7), height: be16(b, i + 5))
            }
            i += 2 + length
        }
        return nil
    }

    private static func webp(_ b: [UInt8]) -> ImageSize? {
        guard b.count >= 30 else { return nil }
        switch String(decoding: b[12..<16], as: UTF8.self) {
        case "VP8 ":  // lossy: the frame header's 14-bit width and height
            return ImageSize(width: le16(b, 26) & 0x3FFF, height: le16(b, 28) & 0x3FFF)
        case "VP8L":  // lossless: 14 bits each, minus one, after the signature byte
            let bits = UInt32(b[21]) | UInt32(b[22]) << 8 | UInt32(b[23]) << 16 | UInt32(b[24]) << 24
            return ImageSize(width: Int(bits & 0x3FFF) + 1, height: Int((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":  // extended: 24-bit canvas width and height, minus one
            return ImageSize(width: le24(b, 24) + 1, height: le24(b, 27) + 1)
        default:
            return nil
        }
    }

    /// The root `<svg>` element's `width` and `height` in pixels (or unitless), else its viewBox.
    private static func svg(_ b: [UInt8]) -> ImageSize? {
        let text = String(decoding: b, as: UTF8.self)
        guard let start = text.range(of: "<svg", options: .caseInsensitive),
            let end = text.range(of: ">", range: start.upperBound..<text.endIndex)
        else { return nil }
        let tag = String(text[start.upperBound..<end.lowerBound])
        func attribute(_ name: String) -> String? {
            let pattern = #"(?:^|\s)"# + name + #"\s*=\s*(?:"([^"]*)"|'([^']*)')"#
            guard let regex = try? NSRegularExpression(pattern: pattern),
                let match = regex.firstMatch(in: tag, range: NSRange(tag.startIndex..., in: tag))
            else { return nil }
            for group in 1...2 {
                if let range = Range(match.range(at: group), in: tag) { return String(tag[range]) }
            }
            return nil
        }
        func pixels(_ value: String?) -> Double? {
            guard var value = value?.trimmingCharacters(in: .whitespaces) else { return nil }
            if value.hasSuffix("px") { value.removeLast(2) }
            guard let number = Double(value), number.isFinite, number > 0 else { return nil }  // "100%", "10em": no size
            return number
        }
        let box = attribute("viewBox").map { $0.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) } }
        let boxSize = box.flatMap { $0.count == 4 && $0[2] > 0 && $0[3] > 0 ? (width: $0[2], height: $0[3]) : nil }
        var width = pixels(attribute("width"))
        var height = pixels(attribute("height"))
        // One of the two and a viewBox: the other follows from the box's proportions.
        if let boxSize {
            if let w = width, height == nil { height = w * boxSize.height / boxSize.width }
            if let h = height, width == nil { width = h * boxSize.width / boxSize.height }
        }
        guard let w = width ?? boxSize?.width, let h = height ?? boxSize?.height, w < 1e6, h < 1e6 else { return nil }
        return ImageSize(width: max(1, Int(w.rounded())), height: max(1, Int(h.rounded())))
    }

    /// An SVG file starts with text: `<?xml`, `<svg`, a comment, a BOM or white space.
    private static func looksLikeText(_ b: [UInt8]) -> Bool {
        let start = b.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(b.dropFirst(3)) : b
        guard let first = start.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return false }
        return first == UInt8(ascii: "<")
    }

    private static func be16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
    private static func be32(_ b: [UInt8], _ i: Int) -> Int { be16(b, i) << 16 | be16(b, i + 2) }
    private static func le16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    private static func le24(_ b: [UInt8], _ i: Int) -> Int { le16(b, i) | Int(b[i + 2]) << 16 }
}

/// The sizes of a site's images, read once each, on whichever thread renders a card first.
public final class ImageSizes: Sendable {
    private let folder: URL?
    private let known = Mutex<[String: ImageSize?]>([:])

    /// `folder` is SITE/assets/; nil reads nothing (a probe, a test).
    public init(folder: URL?) {
        self.folder = folder
    }

    /// The size of the image at `path` under the folder.
    public func size(of path: String) -> ImageSize? {
        guard let folder else { return nil }
        if let size = known.withLock({ $0[path] }) { return size }
        let size = ImageSize.read(folder.appendingPathComponent(path))
        known.withLock { $0[path] = size }
        return size
    }
}
