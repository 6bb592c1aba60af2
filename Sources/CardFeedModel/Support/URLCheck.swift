import Foundation
import CardFeedSystem

/// Decides whether a URL from a card may be put in a page, the way a browser will read it: see
/// `read`, through which every URL check goes.
public enum URLCheck {
    /// "https://www.example.com/x" -> "www.example.com": the host (and port) a URL reaches, as
    /// `read` finds it; nil for a path, for a URL `read` refuses, and for a scheme such as
    /// `mailto:` that names no host.
    package static func host(of url: String) -> String? {
        guard case .success(let url) = read(url) else { return nil }
        return url.host
    }

    /// The words a link without `domain` is shown with: the host it reaches, or for `mailto:`
    /// and `tel:` the address or number alone (`mailto:hello@x.example?subject=Hi` ->
    /// `hello@x.example`); nil when it has none.
    package static func words(for url: String) -> String? {
        guard case .success(let read) = read(url) else { return nil }
        if let host = read.host { return host }
        guard let scheme = read.scheme, scheme == "mailto" || scheme == "tel" else { return nil }
        let target = String(read.text.dropFirst(scheme.count + 1).prefix { $0 != "?" && $0 != "#" })
        let words = target.removingPercentEncoding ?? target
        return words.isEmpty ? nil : words
    }

    /// Schemes a card's link may use.
    public static let linkSchemes: Set<String> = ["http", "https", "mailto", "tel"]
    /// Schemes a card's image may use (other images are paths into SITE/assets/).
    package static let imageSchemes: Set<String> = ["http", "https"]

    package enum Verdict: Equatable {
        /// A URL with an allowed scheme, or a scheme-relative one (`//host/x`, over the page's own
        /// http or https), written as a browser reads it.
        case absolute(String)
        /// A path with no scheme and no host.
        case relative(String)
        /// Refused, with the reason for the warning.
        case refused(String)
    }

    package static func check(_ raw: String, allowedSchemes: Set<String>) -> Verdict {
        switch read(raw) {
        case .failure(let refusal): return .refused(refusal.reason)
        case .success(let url):
            guard let scheme = url.scheme else { return url.host == nil ? .relative(url.text) : .absolute(url.text) }
            guard allowedSchemes.contains(scheme) else {
                let allowed = allowedSchemes.sorted().map { "\($0):" }.joined(separator: ", ")
                // Any other scheme may be an app's deep link (myapp://offer), which a site can allow.
                let howToAllow = ["javascript", "vbscript", "data", "file", "blob", "about", "ftp"].contains(scheme) ? "" : "; if it is your app's deep link, allow it with `links: {app_schemes: [\(scheme)]}` in cardfeed.yml"
                return .refused("the scheme \"\(scheme):\" is not allowed (allowed: \(allowed))\(howToAllow)")
            }
            return .absolute(url.text)
        }
    }

    /// A URL as a browser on one of the site's pages (always at an `http:` or `https:` address) reads it.
    package struct BrowserURL: Equatable {
        /// The URL written so that every reader reads it as the browser does: `///evil.example/x`
        /// is written `//evil.example/x`, `\\a\b` is `//a/b`; as it came when it already was so.
        var text: String
        /// Lower-cased; nil for a path and for a scheme-relative URL (`//host/x`), which takes
        /// the page's own http or https.
        var scheme: String?
        /// The host (with any port) an http, https or scheme-relative URL reaches, or the one
        /// after `scheme://` of another scheme (`myapp://hours`); nil for paths (`/x`, `a.png`, `#f`).
        var host: String?

        /// The host a link to the web reaches: http, https or scheme-relative.
        package var webHost: String? { scheme == nil || scheme == "http" || scheme == "https" ? host : nil }
    }

    package struct Refusal: Error, Equatable {
        package let reason: String
    }

    /// What a browser makes of a link or image URL from a card, a description or the site's
    /// settings. Every URL check (scheme allowed, host, `links.new_tab`, asset path, feed URL)
    /// starts from this, so that none of them reads a URL otherwise than browsers do. As the
    /// WHATWG URL parser does for a page at an http(s) address:
    /// - tabs and newlines anywhere, and control characters or spaces at either end, are removed
    ///   (`java\nscript:`, ` //a`, `/\t/a`), and the scheme is read in any case (`JAVASCRIPT:`);
    /// - in http and https URLs and in URLs without a scheme a backslash is a slash, and two or
    ///   more slashes start a host, further ones skipped (`//a`, `///a`, `\\a`, `/\a`, `\/a`,
    ///   `https:\\a`, `https:///a` all reach the host `a`); the host ends at the first slash,
    ///   `?` or `#`, and is what follows the last `@` before that.
    /// Refused: an empty URL; an http(s) URL without a host, and `https:x` or `https:/x`, which
    /// are a path on an https page and a host on an http one; and a path whose first segment
    /// holds a colon without a valid scheme before it (`&#106;avascript:x`), which no reader
    /// agrees on.
    package static func read(_ raw: String) -> Result<BrowserURL, Refusal> {
        let cleaned = clean(raw)
        if cleaned.isEmpty { return .failure(Refusal(reason: "empty URL")) }
        // On the UTF-8 bytes, all delimiters being ASCII: every link of every card and
        // description comes here, and a `Character` costs a grapheme break search per step.
        return cleaned.withByteView { bytes -> Result<BrowserURL, Refusal> in
            let scheme = Self.scheme(in: bytes)
            let special = scheme == nil || scheme == "http" || scheme == "https"
            func isSlash(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "/") || (special && byte == UInt8(ascii: "\\")) }
            func isHostEnd(_ byte: UInt8) -> Bool { isSlash(byte) || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") }
            func text(_ range: Range<Int>) -> String { bytes.string(range) }
            func quoted() -> String { Diagnostic.quoted(String(text(0..<bytes.count).prefix(40))) }
            let asWritten = { BrowserURL(text: text(0..<bytes.count), scheme: scheme, host: $0) }

            let afterScheme = scheme.map { $0.utf8.count + 1 } ?? 0
            var authority = afterScheme
            while authority < bytes.count, isSlash(bytes[authority]) { authority += 1 }
            guard authority - afterScheme >= 2 else {
                if let scheme {
                    if special { return .failure(Refusal(reason: "\(quoted()) has no host after \"\(scheme)://\"")) }
                    return .success(asWritten(nil))
                }
                let segmentEnd = bytes.firstIndex(where: isSlash) ?? bytes.count
                if bytes.slice(0..<segmentEnd).firstIndex(of: UInt8(ascii: ":"), from: 0) != nil { return .failure(Refusal(reason: "\(quoted()) is not a valid URL")) }
                return .success(BrowserURL(text: slashed(bytes, from: 0), scheme: nil, host: nil))
            }
            if !special && authority - afterScheme != 2 { return .success(asWritten(nil)) }  // "myapp:///x" names no host
            var end = authority
            while end < bytes.count, !isHostEnd(bytes[end]) { end += 1 }
            var hostStart = end
            while hostStart > authority, bytes[hostStart - 1] != UInt8(ascii: "@") { hostStart -= 1 }
            guard hostStart < end else {
                if special { return .failure(Refusal(reason: "\(quoted()) has no host after \"\(scheme.map { $0 + ":" } ?? "")//\"")) }
                return .success(asWritten(nil))
            }
            guard special else { return .success(asWritten(text(hostStart..<end))) }
            // Written with exactly "//" before the host and no backslash where a browser reads a slash.
            return .success(BrowserURL(text: text(0..<afterScheme) + "//" + slashed(bytes, from: authority), scheme: scheme, host: text(hostStart..<end)))
        }
    }

    /// The absolute URL a browser makes of `href` on one of the site's pages, whose `<base href>`
    /// names the site's root, `base` (an http(s) URL ending in "/"): what a feed, which has no
    /// `<base>`, writes for the page's link. `/about.html` on a site at https://x.example/news/
    /// is https://x.example/about.html, `//cdn.example/x` takes the base's scheme, and
    /// `images/a.png`, `#f` and `?q` follow the root. A URL `read` refuses is returned as it is.
    package static func resolve(_ href: String, against base: String) -> String {
        guard case .success(let url) = read(href), url.scheme == nil,
            case .success(let root) = read(base), let scheme = root.scheme, root.host != nil
        else { return href }
        if url.host != nil { return scheme + ":" + url.text }
        guard url.text.hasPrefix("/") else { return base + url.text }
        // The origin: the base up to the path after its host ("https://x.example").
        let afterSlashes = root.text.range(of: "//")!.upperBound
        let pathStart = root.text[afterSlashes...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? root.text.endIndex
        return root.text[..<pathStart] + url.text
    }

    /// The bytes from `start`, each backslash before the query or fragment made a slash, as
    /// browsers read them in http(s) URLs and in paths.
    private static func slashed(_ bytes: ByteView, from start: Int) -> String {
        let rest = bytes.slice(start..<bytes.count)
        let pathEnd = rest.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? rest.endIndex
        guard rest.slice(0..<pathEnd).firstIndex(of: UInt8(ascii: "\\"), from: 0) != nil else { return String(decoding: rest, as: UTF8.self) }
        var copy = rest.array
        for index in 0..<(pathEnd - rest.startIndex) where copy[index] == UInt8(ascii: "\\") { copy[index] = UInt8(ascii: "/") }
        return String(decoding: copy, as: UTF8.self)
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

    /// `text` as the site's base URL, ending in "/" so that pages' paths append to it, or why it
    /// cannot be one, with what to write instead. It prefixes every page's path in `<base href>`,
    /// canonical links, `og:url`, the feeds and the sitemap, so it must be an http(s) address
    /// with a host that a path can follow: no query or fragment (which a path would land in),
    /// no user name or password (which every page would publish), no character a URL must not
    /// hold as it is (spaces, quotes, `<`, `>`, backslashes, control characters), and written as
    /// browsers read it (not `https:///x`).
    package static func baseURL(_ text: String) -> Result<String, Refusal> {
        let example = "https://example.com/news/"
        func refused(_ reason: String) -> Result<String, Refusal> { .failure(Refusal(reason: reason)) }
        if text.unicodeScalars.contains(where: { $0.value <= 0x20 || (0x7F...0x9F).contains($0.value) || "\"'<>\\`{}|^".unicodeScalars.contains($0) || $0.properties.isWhitespace }) {
            return refused("must be an http or https address without spaces, quotes or control characters, such as \(example)")
        }
        guard case .success(let url) = read(text), url.text == text else {
            return refused("must be an http or https address with a host, written as browsers read it, such as \(example)")
        }
        guard let scheme = url.scheme else {
            if url.host != nil { return refused("must say http or https before the host; write \(Diagnostic.quoted("https:" + text))") }
            let guess = text.drop { $0 == "/" || $0 == "." }
            let hint = guess.contains(".") && !guess.hasPrefix("/") ? "write \(Diagnostic.quoted("https://" + guess))" : "give the whole address of the site, such as \(example)"
            return refused("must be an http or https address, not a path (a base URL is the site's whole address); \(hint)")
        }
        guard scheme == "http" || scheme == "https", let host = url.host else {
            return refused("must be an http or https address, not \(Diagnostic.quoted(scheme + ":")) (a base URL is the address pages are served at), such as \(example)")
        }
        // What to write instead: the scheme, the host and the path, without the rest.
        let authorityAndRest = text[text.range(of: "//")!.upperBound...]
        let authority = authorityAndRest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let path = authorityAndRest[authority.endIndex...].prefix { $0 != "?" && $0 != "#" }
        let instead = "write \(Diagnostic.quoted(scheme + "://" + host + (path.hasSuffix("/") ? String(path) : path + "/")))"
        if authority.contains("@") {
            return refused("must not hold a user name or password (\"…@\"), which every page would publish; \(instead)")
        }
        if text.contains("?") { return refused("must not have a query (\"?…\"), which every page's path would be appended to; \(instead)") }
        if text.contains("#") { return refused("must not have a fragment (\"#…\"), which every page's path would be appended to; \(instead)") }
        return .success(text.hasSuffix("/") ? text : text + "/")
    }

    /// The lower-cased scheme, when the URL starts with a valid one (RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":").
    package static func scheme(of url: String) -> String? {
        url.withByteView(scheme(in:))
    }

    /// `scheme(of:)` on the URL's UTF-8 bytes: every byte of a scheme is ASCII, and finding the
    /// colon through `Character`s cost more than the rest of checking a description's links.
    private static func scheme(in bytes: ByteView) -> String? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":"), from: 0), colon > 0 else { return nil }
        let scheme = bytes.slice(0..<colon)
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        guard isLetter(scheme[0]),
            scheme.allSatisfy({ isLetter($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
        else { return nil }
        return scheme.lowercasedASCII
    }

    /// A path into SITE/assets/, normalised, or `nil` if it would leave that folder.
    package static func assetPath(_ path: String) -> String? {
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
