import CCmark
import CardFeedModel
import CardFeedSystem

/// What a description may contain of HTML, and how the rest is shown.
///
/// Marketers paste bits of HTML into a card's text (`<p>…</p>`, `<div align="center">`,
/// `Line one<br>Line two`). cmark's safe mode would replace all of it by a comment, and the
/// words inside with it. Instead, the raw HTML cmark finds is taken apart into tags and text:
/// a small allowlist of tags is kept, written anew by CardFeed without any attribute but a
/// checked `href`, and everything else (other tags, comments, stray or unclosed tags) becomes
/// text that cmark escapes. The result is made of cmark nodes (custom nodes hold the tags we
/// write), so the document is still rendered in cmark's safe mode and no byte of the card's
/// HTML reaches the page unescaped.
///
/// The tags stay valid HTML: `p` and `div` only where a block may stand (not inside a paragraph
/// or an inline tag), `a` never inside another link, and every kept tag is closed.
enum AllowedHTML {
    static let inlineTags: Set<String> = ["b", "i", "em", "strong", "u", "span", "a"]
    static let blockTags: Set<String> = ["p", "div"]
    static let summary = "b, i, em, strong, u, br, p, div, span, and a with a safe href; no other attribute"

    /// What was changed in a document's HTML, for the warning `check` gives once per card.
    struct Changes {
        private(set) var notes: [String] = []
        /// The same notes, to look them up in constant time: a description can hold thousands
        /// of different tag names, each with its note.
        private var noted = Set<String>()
        mutating func note(_ text: String) { if noted.insert(text).inserted { notes.append(text) } }
    }

    /// Replaces every raw HTML node of `document` by allowed tags and text. `checkedHref` turns a
    /// link's `href` into the URL to write, or nil when it is refused.
    /// `opensInNewTab`, when the site has `links.new_tab`, says which kept `a`s open in a new tab.
    static func apply(to document: OpaquePointer, checkedHref: @escaping (String) -> String?, opensInNewTab: ((String) -> Bool)? = nil) -> Changes {
        var blocks: [OpaquePointer] = []
        var inlineParents: [OpaquePointer] = []
        guard let iterator = cmark_iter_new(document) else { return Changes() }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            switch cmark_node_get_type(node) {
            case CMARK_NODE_HTML_BLOCK: blocks.append(node)
            case CMARK_NODE_HTML_INLINE:
                if let parent = cmark_node_parent(node), inlineParents.last != parent, !inlineParents.contains(parent) {
                    inlineParents.append(parent)
                }
            default: break
            }
        }
        cmark_iter_free(iterator)
        var builder = Builder(checkedHref: checkedHref, opensInNewTab: opensInNewTab)
        for parent in inlineParents { builder.rebuildInlines(of: parent) }
        for block in blocks { builder.rebuild(block: block) }
        return builder.changes
    }

    // MARK: Tags

    struct Tag {
        var name: String
        var closing: Bool
        var selfClosing: Bool
        var attributes: [(name: String, value: String)]
        /// The tag as written, shown as text when it is not kept.
        var source: String
    }

    enum Token {
        case text(String)
        case tag(Tag)
    }

    /// Splits raw HTML into tags and text. Anything that is not a well-formed tag (a comment, a
    /// lone `<`) is text.
    static func tokens(_ html: String) -> [Token] {
        let chars = Array(html.unicodeScalars)
        var tokens: [Token] = []
        var text = String.UnicodeScalarView()
        var i = 0
        while i < chars.count {
            if chars[i] == "<", let (tag, end) = tag(chars, at: i) {
                if !text.isEmpty { tokens.append(.text(String(text))); text = String.UnicodeScalarView() }
                tokens.append(.tag(tag))
                i = end
            } else {
                text.append(chars[i])
                i += 1
            }
        }
        if !text.isEmpty { tokens.append(.text(String(text))) }
        return tokens
    }

    /// The tag starting at `start` (a `<`) and the index after it, as CommonMark defines an open
    /// or closing tag.
    private static func tag(_ chars: [Unicode.Scalar], at start: Int) -> (Tag, Int)? {
        func isLetter(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) }
        func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{C}" }
        var i = start + 1
        let closing = i < chars.count && chars[i] == "/"
        if closing { i += 1 }
        guard i < chars.count, isLetter(chars[i]) else { return nil }
        var name = ""
        while i < chars.count, isLetter(chars[i]) || ("0"..."9").contains(chars[i]) || chars[i] == "-" {
            name.unicodeScalars.append(chars[i])
            i += 1
        }
        var attributes: [(String, String)] = []
        var selfClosing = false
        while true {
            let before = i
            while i < chars.count, isSpace(chars[i]) { i += 1 }
            guard i < chars.count else { return nil }
            if chars[i] == ">" { i += 1; break }
            if !closing, chars[i] == "/", i + 1 < chars.count, chars[i + 1] == ">" { selfClosing = true; i += 2; break }
            guard !closing, i > before, isLetter(chars[i]) || chars[i] == "_" || chars[i] == ":" else { return nil }
            var attribute = ""
            while i < chars.count, isLetter(chars[i]) || ("0"..."9").contains(chars[i]) || "_.:-".unicodeScalars.contains(chars[i]) {
                attribute.unicodeScalars.append(chars[i])
                i += 1
            }
            var j = i
            while j < chars.count, isSpace(chars[j]) { j += 1 }
            var value = ""
            if j < chars.count, chars[j] == "=" {
                j += 1
                while j < chars.count, isSpace(chars[j]) { j += 1 }
                guard j < chars.count else { return nil }
                if chars[j] == "\"" || chars[j] == "'" {
                    let quote = chars[j]
                    guard let end = chars[(j + 1)...].firstIndex(of: quote) else { return nil }
                    value = String(String.UnicodeScalarView(chars[(j + 1)..<end]))
                    j = end + 1
                } else {
                    let valueStart = j
                    while j < chars.count, !isSpace(chars[j]), !"\"'=<>`".unicodeScalars.contains(chars[j]) { j += 1 }
                    guard j > valueStart else { return nil }
                    value = String(String.UnicodeScalarView(chars[valueStart..<j]))
                }
                i = j
            }
            attributes.append((attribute.lowercased(), value))
        }
        let source = String(String.UnicodeScalarView(chars[start..<i]))
        return (Tag(name: name.lowercased(), closing: closing, selfClosing: selfClosing, attributes: attributes, source: source), i)
    }

    /// Decodes the character references people write in HTML text and attributes (`&amp;`,
    /// `&nbsp;`, `&#233;`); others stay as written. Characters HTML forbids are not produced.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}"]
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semicolon = after.prefix(12).firstIndex(of: ";") {
                let name = after[..<semicolon]
                var decoded: String?
                if let value = named[String(name)] {
                    decoded = value
                } else if name.hasPrefix("#") {
                    let digits = name.dropFirst()
                    let number = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
                    if let number, let scalar = Unicode.Scalar(number) {
                        decoded = number == 0 || HTMLText.isForbidden(scalar) ? "\u{FFFD}" : String(Character(scalar))
                    }
                }
                if let decoded {
                    out += decoded
                    rest = after[after.index(after: semicolon)...]
                    continue
                }
            }
            out += "&"
            rest = after
        }
        return out + rest
    }

    // MARK: Building cmark nodes

    private enum Item {
        case node(OpaquePointer)
        case text(String)
    }

    /// An element being built: the root, or an open tag whose closing tag has not come yet.
    private struct Frame {
        /// nil for the root.
        var tag: Tag?
        /// The checked href of an `a`; nil for an `a` whose href was refused (its text is kept, unlinked).
        var href: String?
        var items: [Item] = []

        var name: String? { tag?.name }
        var isBlock: Bool { tag.map { AllowedHTML.blockTags.contains($0.name) } ?? true }
        /// Whether a `p` or `div` may open here: at the root (of an HTML block) or in a `div`.
        var isFlow: Bool { tag == nil || tag?.name == "div" }
    }

    /// The open elements, the root first, with how many of each tag name are open, so that
    /// finding the one a closing tag closes, or whether a link is open, does not search all of
    /// them for every tag.
    private struct Frames {
        private var frames = [Frame()]
        private var open: [String: Int] = [:]

        var count: Int { frames.count }

        subscript(index: Int) -> Frame { frames[index] }

        /// Adds to frame `index`'s items in place: through a subscript's getter and setter, each
        /// item added would copy the frame's items.
        mutating func append(_ item: Item, to index: Int) {
            frames[index].items.append(item)
        }

        mutating func append(contentsOf items: [Item], to index: Int) {
            frames[index].items += items
        }

        func isOpen(_ name: String) -> Bool { open[name, default: 0] > 0 }

        /// The index of the innermost open `name`, if one is open (the search ends there, and
        /// every frame it passes is then closed).
        func innermost(_ name: String) -> Int? {
            guard isOpen(name) else { return nil }
            return frames.lastIndex { $0.name == name }
        }

        mutating func append(_ frame: Frame) {
            if let name = frame.name { open[name, default: 0] += 1 }
            frames.append(frame)
        }

        mutating func removeLast() -> Frame {
            let frame = frames.removeLast()
            if let name = frame.name { open[name]! -= 1 }
            return frame
        }

        /// The frames above `index`, outermost first, taken off.
        mutating func removeAll(above index: Int) -> ArraySlice<Frame> {
            let removed = frames[(index + 1)...]
            for frame in removed { if let name = frame.name { open[name]! -= 1 } }
            frames.removeSubrange((index + 1)...)
            return removed
        }
    }

    private struct Builder {
        let checkedHref: (String) -> String?
        let opensInNewTab: ((String) -> Bool)?
        var changes = Changes()

        init(checkedHref: @escaping (String) -> String?, opensInNewTab: ((String) -> Bool)?) {
            self.checkedHref = checkedHref
            self.opensInNewTab = opensInNewTab
        }

        /// Inline HTML: the children of one paragraph, heading, emphasis or link, with their
        /// tags paired among them.
        mutating func rebuildInlines(of parent: OpaquePointer) {
            var insideLink = false
            var ancestor: OpaquePointer? = parent
            while let node = ancestor {
                let type = cmark_node_get_type(node)
                // A Markdown link, or an `a` made from this description's HTML further out.
                if type == CMARK_NODE_LINK || AllowedHTML.isAnchor(node) {
                    insideLink = true
                }
                ancestor = cmark_node_parent(node)
            }
            var frames = Frames()
            var child = cmark_node_first_child(parent)
            while let node = child {
                child = cmark_node_next(node)
                cmark_node_unlink(node)
                guard cmark_node_get_type(node) == CMARK_NODE_HTML_INLINE else {
                    frames.append(.node(node), to: frames.count - 1)
                    continue
                }
                let literal = cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
                cmark_node_free(node)
                for token in AllowedHTML.tokens(literal) {
                    handle(token, &frames, blockContext: false, insideLink: insideLink)
                }
            }
            let items = unwind(&frames)
            for node in inlineNodes(items, trimEdges: false) { append(node, to: parent) }
        }

        /// An HTML block: its tags and text become blocks in its place (text outside a `p` or
        /// `div` goes into paragraphs).
        mutating func rebuild(block: OpaquePointer) {
            let literal = cmark_node_get_literal(block).map { String(cString: $0) } ?? ""
            var frames = Frames()
            for token in AllowedHTML.tokens(literal) {
                handle(token, &frames, blockContext: true, insideLink: false)
            }
            var run: [Item] = []
            func flushRun() {
                let nodes = inlineNodes(run, trimEdges: true)
                run = []
                guard !nodes.isEmpty, let paragraph = cmark_node_new(CMARK_NODE_PARAGRAPH) else { return }
                for node in nodes { append(node, to: paragraph) }
                cmark_node_insert_before(block, paragraph)
            }
            for item in unwind(&frames) {
                if case .node(let node) = item, cmark_node_get_type(node) == CMARK_NODE_CUSTOM_BLOCK {
                    flushRun()
                    cmark_node_insert_before(block, node)
                } else {
                    run.append(item)
                }
            }
            flushRun()
            cmark_node_free(block)
        }

        private mutating func handle(_ token: Token, _ frames: inout Frames, blockContext: Bool, insideLink: Bool) {
            guard case .tag(let tag) = token else {
                if case .text(let text) = token {
                    if text.contains("<!") || text.contains("<?") { changes.note("an HTML comment or declaration is shown as text") }
                    frames.append(.text(AllowedHTML.decodeEntities(text)), to: frames.count - 1)
                }
                return
            }
            func asText(_ note: String) {
                changes.note(note)
                frames.append(.text(tag.source), to: frames.count - 1)
            }
            let dropped = tag.attributes.map(\.name).filter { !(tag.name == "a" && $0 == "href") }
            if tag.name == "br" {
                guard !tag.closing else { return asText("</br> is shown as text") }
                for attribute in dropped { changes.note("the attribute \(attribute) is dropped") }
                if let node = cmark_node_new(CMARK_NODE_LINEBREAK) { frames.append(.node(node), to: frames.count - 1) }
                return
            }
            guard AllowedHTML.inlineTags.contains(tag.name) || AllowedHTML.blockTags.contains(tag.name) else {
                return asText("<\(tag.name)> is shown as text")
            }
            if tag.closing {
                guard let index = frames.innermost(tag.name) else {
                    return asText("a </\(tag.name)> without its opening tag is shown as text")
                }
                closeAsText(&frames, above: index)
                close(&frames)
                return
            }
            guard !tag.selfClosing else { return asText("<\(tag.name)/> is shown as text") }
            if AllowedHTML.blockTags.contains(tag.name) {
                guard blockContext, frames[frames.count - 1].isFlow else { return asText("<\(tag.name)> inside a paragraph or an inline tag is shown as text") }
            }
            for attribute in dropped { changes.note("the attribute \(attribute) is dropped") }
            var frame = Frame(tag: tag)
            if tag.name == "a" {
                guard !insideLink, !frames.isOpen("a") else { return asText("<a> inside a link is shown as text") }
                let href = tag.attributes.last(where: { $0.name == "href" }).map { AllowedHTML.decodeEntities($0.value) }
                frame.href = href.flatMap(checkedHref)
                if frame.href == nil { changes.note("<a> without a safe href is shown as its text") }
            }
            frames.append(frame)
        }

        /// Closes the innermost open tag into a node.
        private mutating func close(_ frames: inout Frames) {
            let frame = frames.removeLast()
            guard let tag = frame.tag else { return }
            if tag.name == "a" && frame.href == nil {  // the words of a refused link stay, unlinked
                frames.append(contentsOf: frame.items, to: frames.count - 1)
                return
            }
            let block = AllowedHTML.blockTags.contains(tag.name)
            guard let node = cmark_node_new(block ? CMARK_NODE_CUSTOM_BLOCK : CMARK_NODE_CUSTOM_INLINE) else { return }
            let open = tag.name == "a" ? AllowedHTML.openingAnchor(href: AllowedHTML.escapeHref(frame.href!), newTab: opensInNewTab?(frame.href!) ?? false) : "<\(tag.name)>"
            cmark_node_set_on_enter(node, open)
            cmark_node_set_on_exit(node, "</\(tag.name)>")
            let children = block ? blockChildren(frame.items) : inlineNodes(frame.items, trimEdges: false)
            for child in children { append(child, to: node) }
            frames.append(.node(node), to: frames.count - 1)
        }

        /// Closes, as text, the tags open above frame `index`, which were never closed: each
        /// one's tag as written, then its content, go to the frame at `index`, outermost first,
        /// in one pass (closing them one by one would copy the content of the inner ones again
        /// at each step, time quadratic in the tags a hostile description leaves open).
        private mutating func closeAsText(_ frames: inout Frames, above index: Int) {
            guard frames.count - 1 > index else { return }
            let closed = frames.removeAll(above: index)
            // Noted innermost first, as they are found to be unclosed.
            for tag in closed.reversed().compactMap(\.tag) { changes.note("an unclosed <\(tag.name)> is shown as text") }
            for frame in closed {
                guard let tag = frame.tag else { continue }
                frames.append(.text(tag.source), to: index)
                frames.append(contentsOf: frame.items, to: index)
            }
        }

        /// What is left open at the end is shown as text.
        private mutating func unwind(_ frames: inout Frames) -> [Item] {
            closeAsText(&frames, above: 0)
            return frames[0].items
        }

        /// The children of a `p` or `div`: white space at either end and around blocks goes (as
        /// it would in HTML), the rest becomes inline nodes.
        private func blockChildren(_ items: [Item]) -> [OpaquePointer] {
            var nodes: [OpaquePointer] = []
            var run: [Item] = []
            for item in items {
                if case .node(let node) = item, cmark_node_get_type(node) == CMARK_NODE_CUSTOM_BLOCK {
                    nodes += inlineNodes(run, trimEdges: true)
                    run = []
                    nodes.append(node)
                } else {
                    run.append(item)
                }
            }
            return nodes + inlineNodes(run, trimEdges: true)
        }

        /// Text and nodes as inline nodes: each newline in text is a line break, as in Braze.
        private func inlineNodes(_ items: [Item], trimEdges: Bool) -> [OpaquePointer] {
            var items = items
            if trimEdges {
                func isBlank(_ item: Item?) -> Bool {
                    if case .text(let text)? = item { return text.allSatisfy(\.isWhitespace) }
                    return false
                }
                while isBlank(items.first) { items.removeFirst() }
                while isBlank(items.last) { items.removeLast() }
                if case .text(let text)? = items.first { items[0] = .text(String(text.drop { $0.isWhitespace })) }
                if case .text(let text)? = items.last { items[items.count - 1] = .text(String(text.reversed().drop { $0.isWhitespace }.reversed())) }
            }
            var nodes: [OpaquePointer] = []
            for item in items {
                switch item {
                case .node(let node): nodes.append(node)
                case .text(let text):
                    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                        if index > 0, let lineBreak = cmark_node_new(CMARK_NODE_LINEBREAK) { nodes.append(lineBreak) }
                        let line = line.hasSuffix("\r") ? line.dropLast() : line
                        if !line.isEmpty, let node = cmark_node_new(CMARK_NODE_TEXT) {
                            cmark_node_set_literal(node, String(line))
                            cmark_node_set_user_data(node, PointerMark.first)
                            nodes.append(node)
                        }
                    }
                }
            }
            return nodes
        }

        /// The rules above only ever put a node where cmark allows it; should one not fit, it
        /// is freed rather than leaked.
        private func append(_ node: OpaquePointer, to parent: OpaquePointer) {
            if cmark_node_append_child(parent, node) == 0 { cmark_node_free(node) }
        }
    }

    /// Whether a text node was made from the description's raw HTML, which `BareURLs` leaves
    /// alone: in GitHub's Markdown too, an address in raw HTML is no link. Such a node is marked
    /// in cmark's user data, a `void *`, with `PointerMark.first`, which points at nothing.
    static func isFromHTML(_ node: OpaquePointer) -> Bool { cmark_node_get_user_data(node) == PointerMark.first }

    /// The opening tag of a link, its href already escaped: with `newTab`, one that opens in a
    /// new tab, as a card's own link does (`links.new_tab`).
    static func openingAnchor(href: String, title: String? = nil, newTab: Bool) -> String {
        "<a href=\"\(href)\"" + (title.map { " title=\"\($0)\"" } ?? "") + (newTab ? " target=\"_blank\" rel=\"noopener\">" : ">")
    }

    /// Whether the node is an `a` this pass made from a description's HTML.
    static func isAnchor(_ node: OpaquePointer) -> Bool {
        cmark_node_get_type(node) == CMARK_NODE_CUSTOM_INLINE && String(cString: cmark_node_get_on_enter(node)).hasPrefix("<a ")
    }

    /// A checked URL as an attribute value: what may not stand in it percent-encoded, `&` as
    /// an entity.
    static func escapeHref(_ url: String) -> String {
        Formatting.attributeURL(url).replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "'", with: "&#39;")
    }
}
