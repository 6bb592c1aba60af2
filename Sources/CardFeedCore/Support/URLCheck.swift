import Foundation

/// Decides whether a URL from a card may be put in a page, the way a browser will read it:
/// tabs and newlines anywhere and control characters or spaces at either end are ignored by
/// browsers, so `java\tscript:` and ` javascript:` are the scheme `javascript`.
public enum URLCheck {
    /// "https://www.example.com/x" -> "www.example.com"; after the last "@" of the part between
    /// "://" and the first "/", "?" or "#".
    static func host(of url: String) -> String? {
        // On the UTF-8 bytes (all the delimiters are ASCII): every link of every card is
        // checked, and searching through `Character`s took a sixth of a build.
        var url = url
        return url.withUTF8 { bytes -> String? in
            var start = -1
            var index = 0
            while index + 2 < bytes.count {
                if bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/") {
                    start = index + 3
                    break
                }
                index += 1
            }
            guard start >= 0 else { return nil }
            var end = start
            while end < bytes.count, !isHostEnd(bytes[end]) { end += 1 }
            // As `split(separator: "@").last`: the last part that is not empty.
            var partEnd = end
            while partEnd > start, bytes[partEnd - 1] == UInt8(ascii: "@") { partEnd -= 1 }
            guard partEnd > start else {
                return end > start ? String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) : nil
            }
            var partStart = partEnd
            while partStart > start, bytes[partStart - 1] != UInt8(ascii: "@") { partStart -= 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[partStart..<partEnd]), as: UTF8.self)
        }
    }

    /// Schemes a card's link may use.
    public static let linkSchemes: Set<String> = ["http", "https", "mailto", "tel"]
    /// Schemes a card's image may use (other images are paths into SITE/assets/).
    static let imageSchemes: Set<String> = ["http", "https"]

    enum Verdict: Equatable {
        /// An absolute URL with an allowed scheme, cleaned as a browser would read it.
        case absolute(String)
        /// A path with no scheme.
        case relative(String)
        /// Refused, with the reason for the warning.
        case refused(String)
    }

    static func check(_ raw: String, allowedSchemes: Set<String>) -> Verdict {
        let cleaned = clean(raw)
        if cleaned.isEmpty { return .refused("empty URL") }
        // Read once on the UTF-8 bytes (every link of every card and description comes here).
        var utf8 = cleaned
        let (scheme, hasHost, colonInFirstSegment) = utf8.withUTF8 { bytes -> (String?, Bool, Bool) in
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return (nil, false, false) }
            let slash = bytes.firstIndex(of: UInt8(ascii: "/")) ?? bytes.count
            // "//" right after the scheme's colon, then at least one byte of host.
            let hasHost = colon + 3 < bytes.count && bytes[colon + 1] == UInt8(ascii: "/") && bytes[colon + 2] == UInt8(ascii: "/")
                && !isHostEnd(bytes[colon + 3])
            return (Self.scheme(in: bytes), hasHost, colon < slash)
        }
        guard let scheme else {
            // A colon in the first path segment without a valid scheme before it ("&#106;avascript:")
            // is not a relative path RFC 3986 allows: refuse rather than guess what a browser makes of it.
            if colonInFirstSegment {
                return .refused("\(Diagnostic.quoted(String(cleaned.prefix(40)))) is not a valid URL")
            }
            return .relative(cleaned)
        }
        guard allowedSchemes.contains(scheme) else {
            let allowed = allowedSchemes.sorted().map { "\($0):" }.joined(separator: ", ")
            // Any other scheme may be an app's deep link (myapp://offer), which a site can allow.
            let howToAllow = ["javascript", "vbscript", "data", "file", "blob", "about", "ftp"].contains(scheme) ? "" : "; if it is your app's deep link, allow it with `links: {app_schemes: [\(scheme)]}` in cardfeed.yml"
            return .refused("the scheme \"\(scheme):\" is not allowed (allowed: \(allowed))\(howToAllow)")
        }
        // "https:javascript:x" has no host; what a browser makes of it differs between browsers.
        if (scheme == "http" || scheme == "https") && !hasHost {
            return .refused("\(Diagnostic.quoted(String(cleaned.prefix(40)))) has no host after \"\(scheme)://\"")
        }
        return .absolute(cleaned)
    }

    /// A byte that ends a URL's authority (the part after "://").
    private static func isHostEnd(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }

    /// What a browser keeps of an attribute's URL: no tabs or newlines anywhere, no control
    /// characters or spaces at either end.
    static func clean(_ raw: String) -> String {
        // The usual case, settled on the UTF-8 bytes in place: a byte above 0x20 at both ends
        // (a multi-byte character's bytes all are) and no tab or line break inside.
        let clean = raw.utf8.withContiguousStorageIfAvailable { bytes in
            guard let first = bytes.first, let last = bytes.last, first > 0x20, last > 0x20 else { return false }
            return !bytes.contains { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        }
        if clean == true { return raw }
        let scalars = raw.unicodeScalars
        // Most URLs need nothing removed: check first, without building a new string.
        if let first = scalars.first, let last = scalars.last, first.value > 0x20, last.value > 0x20,
            !scalars.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\r" })
        {
            return raw
        }
        var kept = String.UnicodeScalarView(scalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" })
        while let first = kept.first, first.value <= 0x20 { kept.removeFirst() }
        while let last = kept.last, last.value <= 0x20 { kept.removeLast() }
        return String(kept)
    }

    /// Whether `text` can be a site's `base_url`: an http(s) address with a host, and no
    /// character a URL must not hold as it is (spaces, quotes, `<`, `>`, backslashes, control
    /// characters), since it is written into every page's `<base href>` and the feeds.
    static func isBaseURL(_ text: String) -> Bool {
        guard let scheme = scheme(of: text), scheme == "http" || scheme == "https", host(of: text) != nil else { return false }
        return !text.unicodeScalars.contains { $0.value <= 0x20 || (0x7F...0x9F).contains($0.value) || "\"'<>\\`{}|^".unicodeScalars.contains($0) || $0.properties.isWhitespace }
    }

    /// The lower-cased scheme, when the URL starts with a valid one (RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":").
    static func scheme(of url: String) -> String? {
        var url = url
        return url.withUTF8(scheme(in:))
    }

    /// `scheme(of:)` on the URL's UTF-8 bytes: every byte of a scheme is ASCII, and finding the
    /// colon through `Character`s cost more than the rest of checking a description's links.
    private static func scheme(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return nil }
        let scheme = UnsafeBufferPointer(rebasing: bytes[..<colon])
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        guard isLetter(scheme[0]),
            scheme.allSatisfy({ isLetter($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
        else { return nil }
        return String(unsafeUninitializedCapacity: scheme.count) { lowered in
            for (index, byte) in scheme.enumerated() { lowered[index] = (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
            return scheme.count
        }
    }

    /// A path into SITE/assets/, normalised, or `nil` if it would leave that folder.
    static func assetPath(_ path: String) -> String? {
        if path.hasPrefix("/") || path.hasPrefix("\\") || path.contains("\\") { return nil }
        let withoutQuery = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        var parts: [Substring] = []
        for part in withoutQuery.split(separator: "/", omittingEmptySubsequences: true) {
            // Browsers read "%2e%2e" as "..".
            switch part.removingPercentEncoding ?? String(part) {
            case ".": continue
            case "..": return nil
            default: parts.append(part)
            }
        }
        if withoutQuery.lowercased().hasPrefix("assets/") { parts.removeFirst() }  // "assets/images/x.png" means the same file.
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }
}
