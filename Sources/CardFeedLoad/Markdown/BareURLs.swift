import CCmark
import CardFeedModel
import CardFeedSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bare web addresses in a description's text made links, as GitHub's autolink extension does
/// (https://github.github.com/gfm/#autolinks-extension-): `https://example.com/x`,
/// `http://…` and `www.example.com` (which links to `http://www.example.com`). The address
/// ends at white space or `<`; trailing punctuation (`?!.,:*_~'"`), an unbalanced `)` and a
/// trailing entity-like `&x;` are left out of it, so that "see https://example.com/x." links
/// the address without the full stop. Debian's libcmark has no GFM extensions, so this is done
/// on cmark's document, on its text: never inside a link or an image, an `a` kept from the
/// description's HTML, a code span or block (which are not text), or text that was raw HTML
/// (`AllowedHTML` marks it). The links made are Markdown links, so they go through every check
/// a written link does (`Markdown.destination`, `links.new_tab`).
enum BareURLs {
    /// Whether `markdown` may hold a bare address: "http://", "https://" (any case) or "www."
    /// that is not a Markdown link's destination (`](https://…`) or an autolink (`<https://…`).
    /// Checked on the bytes in place, from one ":" and one "w" to the next with `memchr`, so
    /// that the walk over the document is left out for the descriptions without an address
    /// (most, and those whose only addresses are in `[text](…)`).
    static func mayHold(_ markdown: String) -> Bool {
        markdown.withByteView { bytes -> Bool in
            // Each `first` followed by `second` (":/", "ww"), looked at more closely.
            func anyAddress(at first: UInt8, _ second: UInt8) -> Bool {
                var index = 0
                while let found = bytes.firstIndex(of: first, from: index), found < bytes.count - 1 {
                    index = found + 1
                    if bytes[index] == second, isAddress(bytes, at: found) { return true }
                }
                return false
            }
            return anyAddress(at: UInt8(ascii: ":"), UInt8(ascii: "/")) || anyAddress(at: UInt8(ascii: "w"), UInt8(ascii: "w"))
        }
    }

    /// Whether a bare address may be at `index`: the colon of "http://" or "https://", or
    /// "www." after the text's start, white space or one of `*_~(`; neither after "](" or "<".
    private static func isAddress(_ bytes: ByteView, at index: Int) -> Bool {
        func byte(_ at: Int) -> UInt8 { at >= 0 && at < bytes.count ? bytes[at] : 0 }
        var start = index
        switch byte(index) {
        case UInt8(ascii: ":"):
            guard byte(index + 1) == UInt8(ascii: "/"), byte(index + 2) == UInt8(ascii: "/") else { return false }
            while start > 0, (byte(start - 1) | 0x20) >= UInt8(ascii: "a"), (byte(start - 1) | 0x20) <= UInt8(ascii: "z") { start -= 1 }
            guard index - start == 4 || index - start == 5, byte(start) | 0x20 == UInt8(ascii: "h") else { return false }
        case UInt8(ascii: "w"):
            guard byte(index + 1) == UInt8(ascii: "w"), byte(index + 2) == UInt8(ascii: "w"), byte(index + 3) == UInt8(ascii: ".") else { return false }
            let before = byte(index - 1)
            guard index == 0 || before == UInt8(ascii: " ") || before == UInt8(ascii: "\n") || before == UInt8(ascii: "\t") || before == UInt8(ascii: "\r")
                || before == UInt8(ascii: "*") || before == UInt8(ascii: "_") || before == UInt8(ascii: "~") || before == UInt8(ascii: "(")
            else { return false }
        default:
            return false
        }
        // A link's destination or an autolink, which cmark has read already.
        return byte(start - 1) != UInt8(ascii: "<") && !(byte(start - 1) == UInt8(ascii: "(") && byte(start - 2) == UInt8(ascii: "]"))
    }

    /// Makes links of the bare addresses in the text of `document`.
    static func link(in document: OpaquePointer) {
        // Runs of neighbouring text nodes, each read as one text: cmark ends a text node at
        // `_`, `*`, `&`… (`https://x.example/a_b` is three), which an address goes on through.
        var runs: [[OpaquePointer]] = []
        guard let iterator = cmark_iter_new(document) else { return }
        var enclosing = 0  // links, images and `a`s of the description's HTML around the node
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            if type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE || AllowedHTML.isAnchor(node) {
                enclosing += event == CMARK_EVENT_ENTER ? 1 : -1
                continue
            }
            guard event == CMARK_EVENT_ENTER, type == CMARK_NODE_TEXT, enclosing == 0, isMarkdownText(node) else { continue }
            if let previous = cmark_node_previous(node), isMarkdownText(previous) { continue }  // in the run before
            var run = [node]
            while let next = cmark_node_next(run[run.count - 1]), isMarkdownText(next) { run.append(next) }
            if run.contains(where: holdsCandidate) { runs.append(run) }
        }
        cmark_iter_free(iterator)
        for run in runs { relink(run) }
    }

    /// A text node made from the description's Markdown (not from its raw HTML).
    private static func isMarkdownText(_ node: OpaquePointer) -> Bool {
        cmark_node_get_type(node) == CMARK_NODE_TEXT && !AllowedHTML.isFromHTML(node)
    }

    private static func holdsCandidate(_ node: OpaquePointer) -> Bool {
        guard let literal = cmark_node_get_literal(node) else { return false }
        return strstr(literal, "://") != nil || strstr(literal, "www.") != nil
    }

    /// Replaces a run of text nodes by text and links, when it holds an address.
    private static func relink(_ run: [OpaquePointer]) {
        let text = run.map { cmark_node_get_literal($0).map { String(cString: $0) } ?? "" }.joined()
        let scalars = Array(text.unicodeScalars)
        let found = matches(in: scalars)
        guard !found.isEmpty, let first = run.first else { return }
        func string(_ range: Range<Int>) -> String { String(String.UnicodeScalarView(scalars[range])) }
        func textNode(_ range: Range<Int>) -> OpaquePointer? {
            guard !range.isEmpty, let node = cmark_node_new(CMARK_NODE_TEXT) else { return nil }
            cmark_node_set_literal(node, string(range))
            return node
        }
        var nodes: [OpaquePointer] = []
        var done = 0
        for (range, url) in found {
            if let before = textNode(done..<range.lowerBound) { nodes.append(before) }
            if let link = cmark_node_new(CMARK_NODE_LINK) {
                cmark_node_set_url(link, url)
                if let label = textNode(range), cmark_node_append_child(link, label) == 0 { cmark_node_free(label) }
                nodes.append(link)
            }
            done = range.upperBound
        }
        if let after = textNode(done..<scalars.count) { nodes.append(after) }
        for node in nodes where cmark_node_insert_before(first, node) == 0 { cmark_node_free(node) }
        for node in run { cmark_node_free(node) }  // unlinks it first
    }

    /// The bare addresses of `text`: where each is, and the URL it links to.
    static func matches(in text: [Unicode.Scalar]) -> [(range: Range<Int>, url: String)] {
        var found: [(range: Range<Int>, url: String)] = []
        var index = 0
        var linkedUpTo = 0
        while index < text.count {
            let match: Range<Int>?
            switch text[index] {
            case ":": match = schemeAddress(text, colon: index, notBefore: linkedUpTo)
            case "w": match = wwwAddress(text, at: index)
            default: match = nil
            }
            guard let match else {
                index += 1
                continue
            }
            let written = String(String.UnicodeScalarView(text[match]))
            found.append((match, text[index] == "w" ? "http://" + written : written))
            index = match.upperBound
            linkedUpTo = index
        }
        return found
    }

    /// `http://…` or `https://…` around the colon at `colon`: the scheme is every ASCII letter
    /// before it (so `xhttp://` is none), and a letter or digit follows `//`.
    private static func schemeAddress(_ text: [Unicode.Scalar], colon: Int, notBefore floor: Int) -> Range<Int>? {
        guard colon + 3 < text.count, text[colon + 1] == "/", text[colon + 2] == "/", isASCIIAlphanumeric(text[colon + 3]) else { return nil }
        var start = colon
        while start > floor, isASCIILetter(text[start - 1]) { start -= 1 }
        let scheme = String(String.UnicodeScalarView(text[start..<colon])).lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let domain = domainLength(text, from: colon + 3, allowShort: true)
        guard domain > 0 else { return nil }
        let end = trimmed(text, from: colon, to: extended(text, from: colon + 3 + domain))
        return end > colon + 3 ? start..<end : nil
    }

    /// `www.…` at `index`, after the text's start, white space or one of `*_~(`.
    private static func wwwAddress(_ text: [Unicode.Scalar], at index: Int) -> Range<Int>? {
        guard index + 4 <= text.count, text[index + 1] == "w", text[index + 2] == "w", text[index + 3] == "." else { return nil }
        if index > 0 {
            let before = text[index - 1]
            guard "*_~(".unicodeScalars.contains(before) || isASCIISpace(before) else { return nil }
        }
        let domain = domainLength(text, from: index, allowShort: false)
        guard domain > 0 else { return nil }
        let end = trimmed(text, from: index, to: extended(text, from: index + domain))
        return end > index ? index..<end : nil
    }

    /// The length of the domain at `start`, 0 when it is none: letters, digits, `-`, `_` and
    /// dots (cmark-gfm's `check_domain`: its first character is not looked at, nor the text's
    /// last; no `_` in the last two labels, unless there are more than ten; `www.` addresses
    /// need a dot).
    private static func domainLength(_ text: [Unicode.Scalar], from start: Int, allowShort: Bool) -> Int {
        let size = text.count - start
        var i = 1
        var dots = 0, underscoresBefore = 0, underscores = 0
        while i < size - 1 {
            if text[start + i] == "\\" && i < size - 2 { i += 1 }
            let c = text[start + i]
            if c == "_" {
                underscores += 1
            } else if c == "." {
                underscoresBefore = underscores
                underscores = 0
                dots += 1
            } else if !isHostCharacter(c) && c != "-" {
                break
            }
            i += 1
        }
        if (underscoresBefore > 0 || underscores > 0) && dots <= 10 { return 0 }
        return allowShort || dots > 0 ? i : 0
    }

    /// Where the address at least to `end` ends: at white space or `<`.
    private static func extended(_ text: [Unicode.Scalar], from end: Int) -> Int {
        var end = min(end, text.count)
        while end < text.count, !isASCIISpace(text[end]), text[end] != "<" { end += 1 }
        return end
    }

    /// The end of the address from `start` to `end` without its trailing punctuation, an
    /// unbalanced `)` or an entity-like `&name;` (cmark-gfm's `autolink_delim`).
    private static func trimmed(_ text: [Unicode.Scalar], from start: Int, to end: Int) -> Int {
        var end = end
        var opening = 0, closing = 0
        for c in text[start..<end] {
            if c == "(" { opening += 1 } else if c == ")" { closing += 1 }
        }
        while end > start {
            switch text[end - 1] {
            case ")":
                if closing <= opening { return end }
                closing -= 1
                end -= 1
            case "?", "!", ".", ",", ":", "*", "_", "~", "'", "\"":
                end -= 1
            case ";":
                var name = end - 2
                while name > start, isASCIILetter(text[name]) { name -= 1 }
                if name < end - 2, name >= start, text[name] == "&" { end = name } else { end -= 1 }
            default:
                return end
            }
        }
        return end
    }

    /// cmark-gfm's `is_valid_hostchar`: neither white space nor punctuation.
    private static func isHostCharacter(_ c: Unicode.Scalar) -> Bool {
        if c.isASCII { return isASCIIAlphanumeric(c) }
        switch c.properties.generalCategory {
        case .spaceSeparator, .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return false
        default:
            return true
        }
    }

    private static func isASCIILetter(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) }
    private static func isASCIIAlphanumeric(_ c: Unicode.Scalar) -> Bool { isASCIILetter(c) || ("0"..."9").contains(c) }
    private static func isASCIISpace(_ c: Unicode.Scalar) -> Bool { c == " " || ("\t"..."\r").contains(c) }
}
