import CCmark
import CardFeedModel
import CardFeedSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CommonMark to HTML through Debian's libcmark, in its default (safe) mode: raw HTML is
/// replaced by a comment and `javascript:`, `vbscript:`, `file:` and non-image `data:` links are
/// emptied. Card descriptions are untrusted, so this must stay so. Before rendering, the raw
/// HTML cmark found is turned into a few allowed tags and text (see `AllowedHTML`), so that a
/// card's words are never dropped, and one newline is a line break, as in Braze's feeds.
///
/// On top of that, links and images follow the same rules as a card's own `url` and `image`:
/// a link whose scheme the site does not allow, or an image that is not http(s), a relative path
/// or a `data:` image cmark keeps, is replaced by its text (safe mode would leave an empty
/// `href=""` or `src=""`, which is invalid HTML and points at the page itself). Characters HTML
/// forbids (most control characters, noncharacters) are dropped first, as they are from all text.
public enum Markdown {
    public static var version: String { String(cString: cmark_version_string()) }

    public static func html(_ markdown: String) -> String { html(markdown, linkSchemes: URLCheck.linkSchemes) }

    /// `opensInNewTab` (a site's `links.new_tab`, nil without one) says which links open in a
    /// new tab: those get `target="_blank" rel="noopener"`, as a card's own link does.
    public static func html(_ markdown: String, linkSchemes: Set<String>, opensInNewTab: ((String) -> Bool)? = nil) -> String {
        withDocument(markdown) { document in
            prepare(document, of: markdown, linkSchemes: linkSchemes, opensInNewTab: opensInNewTab).forEach(makeFocusable)
            return renderedHTML(document, of: markdown)
        } ?? ""
    }

    /// The HTML of `html(_:linkSchemes:opensInNewTab:)` and the words of `text(_:linkSchemes:)`
    /// from one parse: a card's page needs both, and parsing is most of the time either takes.
    public static func htmlAndText(_ markdown: String, linkSchemes: Set<String>, opensInNewTab: ((String) -> Bool)? = nil) -> (html: String, text: String) {
        withDocument(markdown) { document in
            let codeBlocks = prepare(document, of: markdown, linkSchemes: linkSchemes, opensInNewTab: opensInNewTab)
            let text = words(of: document)  // before the code blocks become custom blocks
            codeBlocks.forEach(makeFocusable)
            return (renderedHTML(document, of: markdown), text)
        } ?? ("", "")
    }

    private static func renderedHTML(_ document: OpaquePointer, of markdown: String) -> String {
        guard let rendered = cmark_render_html(document, CMARK_OPT_DEFAULT | CMARK_OPT_HARDBREAKS) else { return "" }
        defer { free(rendered) }
        // cmark decodes character references (`&#1;`, `&#xFDD0;`) into the characters
        // themselves, after forbidden ones were dropped from the source: drop them again.
        return markdown.containsCharacterReference ? HTMLText.removingForbiddenCharacters(String(cString: rendered)) : String(cString: rendered)
    }

    /// The words of a description as its HTML shows them, without the markup: the text of its
    /// text and code, blocks and line breaks as spaces, images left out (their alt text is no
    /// text of the HTML), space folded. A feed entry's title for a card without one.
    public static func text(_ markdown: String, linkSchemes: Set<String>) -> String {
        withDocument(markdown) { document in
            prepare(document, of: markdown, linkSchemes: linkSchemes)
            return words(of: document)
        } ?? ""
    }

    private static func words(of document: OpaquePointer) -> String {
        var text = ""
        if let iterator = cmark_iter_new(document) {
            defer { cmark_iter_free(iterator) }
            while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
                guard let node = cmark_iter_get_node(iterator) else { continue }
                let type = cmark_node_get_type(node)
                switch type {
                case CMARK_NODE_TEXT, CMARK_NODE_CODE, CMARK_NODE_CODE_BLOCK:
                    if let literal = cmark_node_get_literal(node) { text += String(cString: literal) }
                case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                    text += " "
                case CMARK_NODE_IMAGE:
                    if event == CMARK_EVENT_ENTER { cmark_iter_reset(iterator, node, CMARK_EVENT_EXIT) }
                default:
                    // Blocks start and end on lines of their own in the HTML.
                    if type.rawValue >= CMARK_NODE_FIRST_BLOCK.rawValue && type.rawValue <= CMARK_NODE_LAST_BLOCK.rawValue { text += " " }
                }
            }
        }
        // cmark decodes character references (`&#1;`) into characters HTML forbids: dropped first.
        return HTMLText.words(text)
    }

    /// What the HTML and the text of a description are made from: the raw HTML cmark found
    /// turned into allowed tags and text, bare addresses made links, refused links and images
    /// unwrapped, and with `opensInNewTab` the links it names made to open in a new tab.
    /// Returns the code blocks, found on the way.
    @discardableResult
    private static func prepare(_ document: OpaquePointer, of markdown: String, linkSchemes: Set<String>, opensInNewTab: ((String) -> Bool)? = nil) -> [OpaquePointer] {
        if markdown.containsByte(UInt8(ascii: "<")) {  // cmark finds raw HTML only after a "<"
            _ = AllowedHTML.apply(to: document, checkedHref: { checkedLink($0, linkSchemes: linkSchemes) }, opensInNewTab: opensInNewTab)
        }
        if BareURLs.mayHold(markdown) { BareURLs.link(in: document) }
        let codeBlocks = unwrapRefusedLinks(in: document, linkSchemes: linkSchemes)
        if let opensInNewTab { openInNewTab(document, opensInNewTab) }
        return codeBlocks
    }

    /// Every Markdown link to a URL that `opensInNewTab` names becomes one that opens in a new
    /// tab. cmark writes no attribute but `href` and `title`, so such a link becomes a custom
    /// node that writes what cmark writes for it (its href escaped as cmark escapes one), with
    /// `target` and `rel`; its content stays cmark's.
    private static func openInNewTab(_ document: OpaquePointer, _ opensInNewTab: (String) -> Bool) {
        var links: [(node: OpaquePointer, url: String)] = []
        guard let iterator = cmark_iter_new(document) else { return }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator), cmark_node_get_type(node) == CMARK_NODE_LINK else { continue }
            let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
            if opensInNewTab(url) { links.append((node, url)) }
        }
        cmark_iter_free(iterator)
        // Links never nest (CommonMark's rule), so each is replaced on its own.
        for (link, url) in links {
            guard let anchor = cmark_node_new(CMARK_NODE_CUSTOM_INLINE) else { continue }
            let title = cmark_node_get_title(link).map { String(cString: $0) } ?? ""
            cmark_node_set_on_enter(anchor, AllowedHTML.openingAnchor(href: escapedHref(url), title: title.isEmpty ? nil : escapedTitle(title), newTab: true))
            cmark_node_set_on_exit(anchor, "</a>")
            while let child = cmark_node_first_child(link) {
                if cmark_node_append_child(anchor, child) == 0 { cmark_node_free(child) }
            }
            cmark_node_replace(link, anchor)
            cmark_node_free(link)
        }
    }

    /// A link's title as cmark writes it in a `title` attribute: `&`, `<`, `>` and `"` escaped.
    static func escapedTitle(_ title: String) -> String {
        var out = ""
        for scalar in title.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A URL as cmark writes it in an `href` (its `houdini_escape_href`): letters, digits and
    /// `-_.+!*(),%#@?=;:/$~` as they are, `&` and `'` as character references, every other byte
    /// percent-encoded.
    static func escapedHref(_ url: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(url.utf8.count + 16)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in url.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out += "&amp;".utf8
            case UInt8(ascii: "'"): out += "&#x27;".utf8
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                out.append(byte)
            case _ where "-_.+!*(),%#@?=;:/$~".utf8.contains(byte):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A code block keeps its lines and scrolls sideways inside the card; the keyboard can
    /// scroll it only when it can be focused, so it is written `<pre tabindex="0">`. cmark has
    /// no way to add an attribute, so the block becomes a custom node that writes what cmark
    /// writes for it, with the attribute: the tags as the node's markup, the language and the
    /// code as text nodes, which cmark escapes as it escapes a code block.
    private static func makeFocusable(_ codeBlock: OpaquePointer) {
        guard let block = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK) else { return }
        let info = cmark_node_get_fence_info(codeBlock).map { String(cString: $0) } ?? ""
        let language = info.prefix { !" \t\n\r\u{B}\u{C}".contains($0) }
        var parts: [(markup: Bool, text: String)] = [(true, "<pre tabindex=\"0\"><code>")]
        if !language.isEmpty {
            parts = [(true, "<pre tabindex=\"0\"><code class=\"" + (language.hasPrefix("language-") ? "" : "language-")), (false, String(language)), (true, "\">")]
        }
        parts += [(false, cmark_node_get_literal(codeBlock).map { String(cString: $0) } ?? ""), (true, "</code></pre>")]
        for part in parts {
            guard let node = cmark_node_new(part.markup ? CMARK_NODE_CUSTOM_INLINE : CMARK_NODE_TEXT) else { continue }
            if part.markup { cmark_node_set_on_enter(node, part.text) } else { cmark_node_set_literal(node, part.text) }
            if cmark_node_append_child(block, node) == 0 { cmark_node_free(node) }
        }
        cmark_node_replace(codeBlock, block)
        cmark_node_free(codeBlock)
    }

    /// What rendering changes in a description's HTML (tags shown as text, attributes dropped),
    /// for the warning `check` gives; empty when nothing. Cheap for text without a `<`.
    static func markupChanges(_ markdown: String, linkSchemes: Set<String>) -> [String] {
        var notes: [String] = []
        if markdown.containsByte(UInt8(ascii: "<")) {
            notes = withDocument(markdown) { document in
                var notes = AllowedHTML.apply(to: document) { checkedLink($0, linkSchemes: linkSchemes) }.notes
                var nested = false
                forEachLink(in: document) { _, _, image, insideAnchor in nested = nested || (insideAnchor && !image) }
                if nested { notes.append("a Markdown link inside an <a> is shown as its text") }
                return notes
            } ?? []
        }
        if markdown.containsCharacterReference, forbiddenReference(in: markdown) {
            notes.append("a character reference to a character HTML forbids (a control character or noncharacter) is dropped")
        }
        return notes
    }

    /// The line (from 1) of the first table delimiter row (`|---|:--:|`, `--- | ---`) right
    /// under a row with a pipe: a GitHub-style table, which CommonMark (and so cmark) shows as
    /// text, pipes and all. Nil when there is none.
    static func tableLine(_ markdown: String) -> Int? {
        guard markdown.containsByte(UInt8(ascii: "|")) else { return nil }
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        for index in lines.indices.dropFirst() where lines[index - 1].contains("|") && isDelimiterRow(lines[index]) {
            return index + 1
        }
        return nil
    }

    private static func isDelimiterRow(_ line: Substring) -> Bool {
        var cells = line.trimmingCharacters(in: .whitespaces).split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        if cells.first == "" { cells.removeFirst() }
        if cells.last == "" { cells.removeLast() }
        guard !cells.isEmpty, line.contains("|") || cells.count > 1 else { return false }
        return cells.allSatisfy { $0.range(of: "^:?-+:?$", options: .regularExpression) != nil }
    }

    /// Whether cmark decodes a character reference of the text into a character HTML forbids.
    private static func forbiddenReference(in markdown: String) -> Bool {
        withDocument(markdown) { document in
            guard let rendered = cmark_render_html(document, CMARK_OPT_DEFAULT) else { return false }
            defer { free(rendered) }
            return String(cString: rendered).unicodeScalars.contains(where: HTMLText.isForbidden)
        } ?? false
    }

    private static func withDocument<Result>(_ markdown: String, _ body: (OpaquePointer) -> Result) -> Result? {
        var source = HTMLText.removingForbiddenCharacters(markdown)
        return source.withUTF8 { bytes in
            let document = bytes.withMemoryRebound(to: CChar.self) { chars in
                cmark_parse_document(chars.baseAddress, chars.count, CMARK_OPT_DEFAULT)
            }
            guard let document else { return nil }
            defer { cmark_node_free(document) }
            return body(document)
        }
    }

    /// The URL to write for an `href` in a description's HTML, or nil when it is refused.
    static func checkedLink(_ url: String, linkSchemes: Set<String>) -> String? {
        guard case .written(let written) = destination(of: url, image: false, linkSchemes: linkSchemes) else { return nil }
        return written
    }

    /// What becomes of a description's link or image: written with this URL, or replaced by its
    /// text (an image by its alt text) for this reason. The one decision for the page
    /// (`unwrapRefusedLinks`, `checkedLink`) and for the warnings (`linkProblems`).
    enum Destination: Equatable {
        case written(String)
        case refused(String)
    }

    static func destination(of url: String, image: Bool, linkSchemes: Set<String>) -> Destination {
        if image, isDataImage(url) { return .written(url) }
        switch URLCheck.check(url, allowedSchemes: image ? URLCheck.imageSchemes : linkSchemes) {
        case .absolute(let read): return .written(read)
        case .relative(let path):
            guard let inAssets = inAssets(path) else { return .refused("it leaves the site's assets/ folder") }
            return .written(inAssets)
        case .refused(let reason): return .refused(reason)
        }
    }

    /// A relative path in a description names a file of SITE/assets/, as a card's `image` does:
    /// `images/map.png` is written `assets/images/map.png`, which every page finds through its
    /// `<base href>`, at any depth. Paths from the host's root (`/x`) and links within the page
    /// (`#x`, `?q`) stay as written; nil for a path that leaves assets/.
    static func inAssets(_ path: String) -> String? {
        guard let first = path.first, !"/#?".contains(first) else { return path }
        let end = path.firstIndex { $0 == "?" || $0 == "#" } ?? path.endIndex
        guard let file = URLCheck.assetPath(String(path[..<end])) else { return nil }
        return assetsPrefix + file + path[end...]
    }

    private static let assetsPrefix = "assets/"

    /// Replaces every link and image whose URL is refused by its text (an image's alt text), and
    /// writes the others as `destination` reads them (relative ones pointed into assets/). A
    /// Markdown link inside an `a` kept from the description's HTML is shown as its text too:
    /// HTML has no link inside a link (browsers would end the outer one where the inner begins).
    /// Returns the code blocks it passed on the way.
    private static func unwrapRefusedLinks(in document: OpaquePointer, linkSchemes: Set<String>) -> [OpaquePointer] {
        var refused: [OpaquePointer] = []
        var codeBlocks: [OpaquePointer] = []
        forEachLink(in: document, codeBlock: { codeBlocks.append($0) }) { node, url, image, insideAnchor in
            if insideAnchor && !image { return refused.append(node) }
            switch destination(of: url, image: image, linkSchemes: linkSchemes) {
            case .written(let written): if written != url { cmark_node_set_url(node, written) }
            case .refused: refused.append(node)
            }
        }
        // Innermost first (an image inside a link is entered after the link), so that each node
        // is unwrapped before its parent moves it.
        for node in refused.reversed() {
            while let child = cmark_node_first_child(node) {
                cmark_node_insert_before(node, child)
            }
            cmark_node_free(node)
        }
        return codeBlocks
    }

    /// Calls `body` with each link and image node of the document, its URL, whether it is an
    /// image, and whether it is inside an `a` made from the description's HTML (`AllowedHTML`);
    /// and `codeBlock` with each code block, in the same pass.
    private static func forEachLink(
        in document: OpaquePointer, codeBlock: ((OpaquePointer) -> Void)? = nil,
        _ body: (_ node: OpaquePointer, _ url: String, _ image: Bool, _ insideAnchor: Bool) -> Void
    ) {
        guard let iterator = cmark_iter_new(document) else { return }
        defer { cmark_iter_free(iterator) }
        var anchors = 0
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard let node = cmark_iter_get_node(iterator) else { continue }
            if AllowedHTML.isAnchor(node) { anchors += event == CMARK_EVENT_ENTER ? 1 : -1 }
            guard event == CMARK_EVENT_ENTER else { continue }
            let type = cmark_node_get_type(node)
            if type == CMARK_NODE_CODE_BLOCK { codeBlock?(node) }
            guard type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE else { continue }
            body(node, cmark_node_get_url(node).map { String(cString: $0) } ?? "", type == CMARK_NODE_IMAGE, anchors > 0)
        }
    }

    /// A warning for each Markdown link and image of a description that the page does not show
    /// as written: one refused (shown as its text, an image as its alt text) and one naming a
    /// file of assets/ the site does not have (broken). Each says what to do.
    static func linkProblems(_ markdown: String, linkSchemes: Set<String>, assets: AssetFiles) -> [String] {
        mayHaveLinkProblems(markdown) ? everyLinkProblem(markdown, linkSchemes: linkSchemes, assets: assets) : []
    }

    /// `linkProblems` without the quick test that the text has none.
    static func everyLinkProblem(_ markdown: String, linkSchemes: Set<String>, assets: AssetFiles) -> [String] {
        withDocument(markdown) { document in
            var problems: [String] = []
            forEachLink(in: document) { _, url, image, _ in
                let what = "\(image ? "the image" : "the link") \(Diagnostic.quoted(url))"
                let problem: String
                switch destination(of: url, image: image, linkSchemes: linkSchemes) {
                case .refused(let reason):
                    let fix = image ? "use an http(s) address or a file of assets/" : "use an allowed link, or a file of assets/"
                    problem = "\(what): \(reason); \(image ? "its alt text is shown instead" : "its text is shown, unlinked") (\(fix))"
                case .written(let written):
                    guard written.hasPrefix(assetsPrefix) else { return }
                    let file = String(written.dropFirst(assetsPrefix.count).prefix { $0 != "?" && $0 != "#" })
                    guard !assets.contains(file) else { return }
                    problem = "\(what): no file assets/\(file) in the site, so the \(image ? "image" : "link") is broken (add the file to assets/, or correct the path)"
                }
                if !problems.contains(problem) { problems.append(problem) }
            }
            return problems
        } ?? []
    }

    /// False only when every link of the text surely goes to an http(s) host: no raw HTML or
    /// autolink (`<`), no link reference definition (`]:`), and each `](` followed by `http://`
    /// or `https://`, a host byte, and no `@` or backslash before the destination ends. Checked on
    /// the bytes, so that the descriptions of most cards cost no second cmark parse when loaded.
    static func mayHaveLinkProblems(_ markdown: String) -> Bool {
        guard !markdown.containsByte(UInt8(ascii: "<")) else { return true }
        return markdown.withByteView { bytes in
            // From one "]" to the next with memchr: this runs over every description loaded.
            var index = 0
            while index + 1 < bytes.count, let found = bytes.firstIndex(of: UInt8(ascii: "]"), from: index) {
                index = found
                defer { index += 1 }
                guard index + 1 < bytes.count else { return false }
                let next = bytes[index + 1]
                if next == UInt8(ascii: ":") { return true }
                guard next == UInt8(ascii: "(") else { continue }
                var start = index + 2
                for prefix in ["https://", "http://"] where bytes.count - start >= prefix.utf8.count {
                    if zip(bytes[start...], prefix.utf8).allSatisfy({ $0 == $1 }) { start += prefix.utf8.count; break }
                }
                guard start > index + 2 + 6, start < bytes.count else { return true }
                let first = bytes[start]
                guard (0x30...0x39).contains(first) || (0x41...0x5A).contains(first) || (0x61...0x7A).contains(first) else { return true }
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: ")"), bytes[end] > 0x20 {
                    if bytes[end] == UInt8(ascii: "@") || bytes[end] == UInt8(ascii: "\\") { return true }
                    end += 1
                }
            }
            return false
        }
    }

    /// cmark keeps these `data:` images in safe mode; an image cannot run script.
    private static let dataImages = ["data:image/png", "data:image/gif", "data:image/jpeg", "data:image/webp"]

    private static func isDataImage(_ url: String) -> Bool {
        let lowered = url.lowercased()
        return dataImages.contains { lowered.hasPrefix($0) }
    }
}

extension String {
    /// Whether the text holds "&#", the start of a numeric character reference: `memchr` from
    /// one "&" to the next over the bytes in place (`contains("&#")` goes through Foundation's
    /// string search, and this runs over every description).
    var containsCharacterReference: Bool {
        withByteView { bytes in
            var at = 0
            while let ampersand = bytes.firstIndex(of: UInt8(ascii: "&"), from: at) {
                if ampersand + 1 < bytes.count, bytes[ampersand + 1] == UInt8(ascii: "#") { return true }
                at = ampersand + 1
            }
            return false
        }
    }

    /// Whether the text's UTF-8 holds `byte`: `memchr` over the bytes in place (a description is
    /// scanned for "<" twice per card, and `utf8.contains` went byte by byte through an iterator).
    func containsByte(_ byte: UInt8) -> Bool {
        withByteView { $0.firstIndex(of: byte, from: 0) != nil }
    }
}
