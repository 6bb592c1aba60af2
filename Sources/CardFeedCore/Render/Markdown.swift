import CCmark

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CommonMark to HTML through Debian's libcmark, in its default (safe) mode: raw HTML is
/// replaced by a comment and `javascript:`, `vbscript:`, `file:` and non-image `data:` links are
/// emptied. Card descriptions are untrusted, so this must stay so.
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
        var source = HTMLText.removingForbiddenCharacters(markdown)
        return source.withUTF8 { bytes in
            let document = bytes.withMemoryRebound(to: CChar.self) { chars in
                cmark_parse_document(chars.baseAddress, chars.count, CMARK_OPT_DEFAULT)
            }
            guard let document else { return "" }
            defer { cmark_node_free(document) }
            unwrapRefusedLinks(in: document, linkSchemes: linkSchemes)
            guard let rendered = cmark_render_html(document, CMARK_OPT_DEFAULT) else { return "" }
            defer { free(rendered) }
            return String(cString: rendered)
        }
    }

    /// Replaces every link and image whose URL is refused by its text (an image's alt text).
    private static func unwrapRefusedLinks(in document: OpaquePointer, linkSchemes: Set<String>) {
        var refused: [OpaquePointer] = []
        guard let iterator = cmark_iter_new(document) else { return }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            guard type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE else { continue }
            let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
            if !isAllowed(url, image: type == CMARK_NODE_IMAGE, linkSchemes: linkSchemes) { refused.append(node) }
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
    }

    /// cmark keeps these `data:` images in safe mode; an image cannot run script.
    private static let dataImages = ["data:image/png", "data:image/gif", "data:image/jpeg", "data:image/webp"]

    static func isAllowed(_ url: String, image: Bool, linkSchemes: Set<String>) -> Bool {
        if image, dataImages.contains(where: { url.lowercased().hasPrefix($0) }) { return true }
        switch URLCheck.check(url, allowedSchemes: image ? URLCheck.imageSchemes : linkSchemes) {
        case .absolute, .relative: return true
        case .refused: return false
        }
    }
}
