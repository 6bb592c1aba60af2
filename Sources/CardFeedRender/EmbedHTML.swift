import CardFeedModel

/// Rewrites the values of some attributes in HTML that CardFeed made (its templates' output,
/// cmark's descriptions): a scan of the UTF-8 bytes for ` name="`, each value up to its closing
/// quote. Only attribute values can hold `name="`: in text a quote is always `&quot;`, and every
/// template value is escaped. (A regular expression here was compiled for every card.)
enum HTMLAttributes {
    /// `html` with the value of each attribute of `names` replaced by what `change` makes of it
    /// (the attribute's name, its value); nil keeps the value.
    static func rewrite(_ html: String, _ names: [String], _ change: (_ name: String, _ value: String) -> String?) -> String {
        let patterns = names.map { (name: $0, bytes: Array(" \($0)=\"".utf8)) }
        guard patterns.contains(where: { html.contains(String(decoding: $0.bytes, as: UTF8.self)) }) else { return html }
        let bytes = Array(html.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 256)
        var copied = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: " "), let pattern = patterns.first(where: { bytes[index...].starts(with: $0.bytes) }) else {
                index += 1
                continue
            }
            let start = index + pattern.bytes.count
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\"")) ?? bytes.count
            let value = String(decoding: bytes[start..<end], as: UTF8.self)
            index = end
            guard let changed = change(pattern.name, value), changed != value else { continue }
            out += bytes[copied..<start]
            out += changed.utf8
            copied = end
        }
        out += bytes[copied...]
        return String(decoding: out, as: UTF8.self)
    }
}

/// What makes a placement's HTML safe to put inside another site's page: every class and id it
/// has carries one prefix, `cardfeed-` (`card__title` is `cardfeed-card__title`), so that
/// neither the host's stylesheet nor its ids meet CardFeed's; and its addresses, relative to the
/// site root as on the site's pages, are made absolute where the form needs it.
package enum EmbedHTML {
    /// The prefix of every class, id and custom property of a placement (docs/embedding.md).
    package static let prefix = "cardfeed-"

    /// Attributes that name ids of the same document.
    private static let idReferences = ["aria-labelledby", "aria-describedby", "aria-controls", "for"]

    /// `html` with every class prefixed, and every id (and reference to one) prefixed with the
    /// placement's name too (`idPrefix(of:)`), so that two placements on one page that show the
    /// same card do not give two elements one id.
    static func prefixed(_ html: String, placement: String) -> String {
        let ids = idPrefix(of: placement)
        return HTMLAttributes.rewrite(html, ["class", "id"] + idReferences) { name, value in
            let start = name == "class" ? prefix : ids
            return value.split(separator: " ", omittingEmptySubsequences: true).map { start + $0 }.joined(separator: " ")
        }
    }

    /// "cardfeed-home-hero--": a placement's name never holds "--", so no two placements' ids meet.
    static func idPrefix(of placement: String) -> String { prefix + placement + "--" }

    /// `html` with its links and images (`href`, `src`, `srcset`) resolved against `baseURL`.
    static func absolute(_ html: String, baseURL: String) -> String {
        addresses(html) { URLCheck.resolve($0, against: baseURL) }
    }

    /// `html`, whose addresses are relative to the site root, with them relative to the folder
    /// `tree` below it instead: from "de", `de/cards/card-x.html` is `cards/card-x.html` and
    /// `assets/a.png` is `../assets/a.png`. What a language's placement JSON holds
    /// (`de/embed/NAME.json`), so that the web component finds its addresses where it finds
    /// those of the root's JSON: in the folder above the JSON's `embed/`.
    static func relative(_ html: String, toTree tree: String) -> String {
        guard !tree.isEmpty else { return html }
        return addresses(html) { relative(address: $0, toTree: tree) }
    }

    /// One address of `relative(_:toTree:)`: relative to the site root, made relative to `tree`'s folder.
    static func relative(address: String, toTree tree: String) -> String {
        guard !tree.isEmpty, isRelativePath(address) else { return address }
        return address.hasPrefix(tree + "/") ? String(address.dropFirst(tree.count + 1)) : PagePaths.root(of: tree + "/") + address
    }

    /// Whether `address` is a path relative to the page's base (`images/a.png`, `?q`), which
    /// moves with the base, unlike one with a scheme (`https:`, `data:`), one from the host's
    /// root (`/x`, `//cdn.example/x`, which a browser may write `\x`) or a fragment of the page (`#card-x`).
    static func isRelativePath(_ address: String) -> Bool {
        let bytes = address.utf8
        guard let first = bytes.first, !"/\\#".utf8.contains(first) else { return false }
        // A scheme is a letter, then letters, digits, "+", "-" or ".", up to a colon.
        func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) }
        func isSchemeByte(_ byte: UInt8) -> Bool { isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "+-.".utf8.contains(byte) }
        guard isLetter(first), let end = bytes.firstIndex(where: { !isSchemeByte($0) }) else { return true }
        return bytes[end] != UInt8(ascii: ":")
    }

    /// `html` with each address of its links and images (`href`, `src`, each candidate of a
    /// `srcset`, whose descriptors are kept: "a.png 1x, b.png 2x") replaced by `change`'s.
    private static func addresses(_ html: String, _ change: (String) -> String) -> String {
        HTMLAttributes.rewrite(html, ["href", "src", "srcset"]) { name, value in
            guard name == "srcset" else { return change(value) }
            return value.split(separator: ",").map { candidate in
                let parts = candidate.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
                guard let url = parts.first else { return String(candidate) }
                return ([change(String(url))] + parts.dropFirst().map(String.init)).joined(separator: " ")
            }.joined(separator: ", ")
        }
    }
}
