import CCmark

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

    public static func html(_ markdown: String, linkSchemes: Set<String>) -> String {
        withDocument(markdown) { document in
            prepare(document, of: markdown, linkSchemes: linkSchemes).forEach(makeFocusable)
            guard let rendered = cmark_render_html(document, CMARK_OPT_DEFAULT | CMARK_OPT_HARDBREAKS) else { return "" }
            defer { free(rendered) }
            // cmark decodes character references (`&#1;`, `&#xFDD0;`) into the characters
            // themselves, after forbidden ones were dropped from the source: drop them again.
            return markdown.containsCharacterReference ? HTMLText.removingForbiddenCharacters(String(cString: rendered)) : String(cString: rendered)
        } ?? ""
    }

    /// The words of a description as its HTML shows them, without the markup: the text of its
    /// text and code, blocks and line breaks as spaces, images left out (their alt text is no
    /// text of the HTML), space folded. A feed entry's title for a card without one.
    public static func text(_ markdown: String, linkSchemes: Set<String>) -> String {
        let text = withDocument(markdown) { document -> String in
            prepare(document, of: markdown, linkSchemes: linkSchemes)
            var text = ""
            guard let iterator = cmark_iter_new(document) else { return "" }
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
            return text
        } ?? ""
        // cmark decodes character references (`&#1;`) into characters HTML forbids: dropped first.
        return HTMLText.removingForbiddenCharacters(text).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// What the HTML and the text of a description are made from: the raw HTML cmark found
    /// turned into allowed tags and text, refused links and images unwrapped. Returns the code
    /// blocks, found on the same walk.
    @discardableResult
    private static func prepare(_ document: OpaquePointer, of markdown: String, linkSchemes: Set<String>) -> [OpaquePointer] {
        if markdown.containsByte(UInt8(ascii: "<")) {  // cmark finds raw HTML only after a "<"
            _ = AllowedHTML.apply(to: document) { checkedLink($0, linkSchemes: linkSchemes) }
        }
        return unwrapRefusedLinks(in: document, linkSchemes: linkSchemes)
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
                AllowedHTML.apply(to: document) { checkedLink($0, linkSchemes: linkSchemes) }.notes
            } ?? []
        }
        if markdown.containsCharacterReference, forbiddenReference(in: markdown) {
            notes.append("a character reference to a character HTML forbids (a control character or noncharacter) is dropped")
        }
        return notes
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
        switch URLCheck.check(url, allowedSchemes: linkSchemes) {
        case .absolute(let clean): return clean
        case .relative(let path): return inAssets(path)
        case .refused: return nil
        }
    }

    /// A relative path in a description names a file of SITE/assets/, as a card's `image` does:
    /// `images/map.png` is written `assets/images/map.png`, which every page finds through its
    /// `<base href>`, at any depth. Paths from the host's root (`/x`, `//host/x`) and links
    /// within the page (`#x`, `?q`) stay as written; nil for a path that leaves assets/.
    static func inAssets(_ path: String) -> String? {
        guard let first = path.first, !"/#?".contains(first) else { return path }
        let end = path.firstIndex { $0 == "?" || $0 == "#" } ?? path.endIndex
        guard let file = URLCheck.assetPath(String(path[..<end])) else { return nil }
        return "assets/" + file + path[end...]
    }

    /// Replaces every link and image whose URL is refused by its text (an image's alt text), and
    /// points relative ones into assets/. Returns the code blocks it passed on the way.
    private static func unwrapRefusedLinks(in document: OpaquePointer, linkSchemes: Set<String>) -> [OpaquePointer] {
        var refused: [OpaquePointer] = []
        var codeBlocks: [OpaquePointer] = []
        guard let iterator = cmark_iter_new(document) else { return [] }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            if type == CMARK_NODE_CODE_BLOCK { codeBlocks.append(node) }
            guard type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE else { continue }
            let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
            let image = type == CMARK_NODE_IMAGE
            if image, isDataImage(url) { continue }
            switch URLCheck.check(url, allowedSchemes: image ? URLCheck.imageSchemes : linkSchemes) {
            case .absolute: continue
            case .relative(let path):
                if let resolved = inAssets(path) { cmark_node_set_url(node, resolved) } else { refused.append(node) }
            case .refused: refused.append(node)
            }
        }
        cmark_iter_free(iterator)
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

    /// cmark keeps these `data:` images in safe mode; an image cannot run script.
    private static let dataImages = ["data:image/png", "data:image/gif", "data:image/jpeg", "data:image/webp"]

    private static func isDataImage(_ url: String) -> Bool {
        let lowered = url.lowercased()
        return dataImages.contains { lowered.hasPrefix($0) }
    }
}

extension String {
    /// Whether the text holds "&#", the start of a numeric character reference: `memchr` from
    /// one "&" to the next over the bytes in place (`contains("&#")` goes through Foundation, a
    /// tenth of a build's time, and a byte-pair scan was 3% of it).
    var containsCharacterReference: Bool {
        let found = utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard var at = bytes.baseAddress else { return false }
            let end = at + bytes.count
            while at < end, let ampersand = memchr(at, Int32(UInt8(ascii: "&")), end - at) {
                let next = UnsafePointer(ampersand.assumingMemoryBound(to: UInt8.self)) + 1
                if next < end, next.pointee == UInt8(ascii: "#") { return true }
                at = next
            }
            return false
        }
        return found ?? (utf8.firstRange(of: "&#".utf8) != nil)
    }

    /// Whether the text's UTF-8 holds `byte`: `memchr` over the bytes in place (a description is
    /// scanned for "<" twice per card, and `utf8.contains` went byte by byte through an iterator).
    func containsByte(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.isEmpty ? false : memchr($0.baseAddress!, Int32(byte), $0.count) != nil }
            ?? utf8.contains(byte)
    }
}
