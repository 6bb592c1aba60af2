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
        HTMLAttributes.rewrite(html, ["href", "src", "srcset"]) { name, value in
            guard name == "srcset" else { return URLCheck.resolve(value, against: baseURL) }
            // "a.png 1x, b.png 2x": each candidate's address, its descriptor kept.
            return value.split(separator: ",").map { candidate in
                let parts = candidate.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
                guard let url = parts.first else { return String(candidate) }
                return ([URLCheck.resolve(String(url), against: baseURL)] + parts.dropFirst().map(String.init)).joined(separator: " ")
            }.joined(separator: ", ")
        }
    }
}
