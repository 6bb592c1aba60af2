/// Reads a template into nodes in two passes, each linear in the template's length: the tokens
/// of each line, with the spec's standalone lines removed as each line ends, then the tree,
/// built with an explicit stack (no recursion, so that deep nesting is an error, not a crash).
struct MustacheParser {
    private let bytes: [UInt8]
    /// Where the template's literal text goes.
    let arena = TextArena()
    private var open: [UInt8] = Array("{{".utf8)
    private var close: [UInt8] = Array("}}".utf8)
    private var tokens: [Token] = []
    /// Where the current line's tokens begin, and its number and first byte.
    private var lineTokens = 0
    private var line = 1
    private var lineStart = 0
    /// The last column worked out, so that the next starts from there (tags come in order: a
    /// line of 50,000 tags is read in linear time).
    private var lastColumn = (offset: 0, column: 1)

    init(_ source: String) {
        bytes = Array(source.utf8)
    }

    private enum Token {
        case text(Range<Int>)
        case tag(RawTag)
        /// Taken out with a standalone line.
        case removed
    }

    private struct RawTag {
        enum Kind: Equatable { case variable, raw, section, inverted, close, comment, partial, parent, block, delimiters }
        var kind: Kind
        var name: String
        var line: Int
        var column: Int
        var standalone = false
        /// The whitespace before a standalone tag on its line.
        var indentation: [UInt8] = []
        /// The whitespace before a block tag that is the first thing on its line but not alone there.
        var lead: [UInt8]?

        var place: TagPlace { TagPlace(line: line, column: column) }
    }

    mutating func parse() throws(MustacheParseError) -> ([Node], [MustacheTag]) {
        try tokenize()
        return try buildTree()
    }

    // MARK: Tokens

    private mutating func tokenize() throws(MustacheParseError) {
        var index = 0
        var textStart = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                if textStart < index + 1 { tokens.append(.text(textStart..<index + 1)) }
                endLine(newline: true)
                index += 1
                textStart = index
                line += 1
                lineStart = index
                continue
            }
            if byte == open[0], starts(with: open, at: index) {
                if textStart < index { tokens.append(.text(textStart..<index)) }
                index = try readTag(at: index)
                textStart = index
                continue
            }
            index += 1
        }
        if textStart < bytes.count { tokens.append(.text(textStart..<bytes.count)) }
        endLine(newline: false)
    }

    /// Reads the tag that starts at `start`; returns where it ends.
    private mutating func readTag(at start: Int) throws(MustacheParseError) -> Int {
        let column = columnOf(start)
        let tagLine = line
        var contentStart = start + open.count
        var kind = RawTag.Kind.variable
        var end: Int
        var contentEnd: Int
        if contentStart < bytes.count, bytes[contentStart] == UInt8(ascii: "{") {
            kind = .raw
            contentStart += 1
            guard let found = find([UInt8(ascii: "}")] + close, from: contentStart) else { throw unclosed(tagLine, column) }
            contentEnd = found
            end = found + 1 + close.count
        } else {
            guard let found = find(close, from: contentStart) else { throw unclosed(tagLine, column) }
            contentEnd = found
            end = found + close.count
        }
        // A comment may span lines: count them, without ending the line for standalone purposes.
        for offset in start..<end where bytes[offset] == UInt8(ascii: "\n") {
            line += 1
            lineStart = offset + 1
        }
        var content = trimmed(contentStart..<contentEnd)
        if kind == .variable, let sigil = content.first.map({ bytes[$0] }) {
            let kinds: [UInt8: RawTag.Kind] = [
                UInt8(ascii: "#"): .section, UInt8(ascii: "^"): .inverted, UInt8(ascii: "/"): .close,
                UInt8(ascii: "!"): .comment, UInt8(ascii: ">"): .partial, UInt8(ascii: "<"): .parent,
                UInt8(ascii: "$"): .block, UInt8(ascii: "&"): .raw, UInt8(ascii: "="): .delimiters,
            ]
            if let sigilKind = kinds[sigil] {
                kind = sigilKind
                content = trimmed(content.lowerBound + 1..<content.upperBound)
            }
        }
        switch kind {
        case .comment:
            tokens.append(.tag(RawTag(kind: .comment, name: "", line: tagLine, column: column)))
        case .delimiters:
            try setDelimiters(content, line: tagLine, column: column)
            tokens.append(.tag(RawTag(kind: .delimiters, name: "", line: tagLine, column: column)))
        default:
            let name = String(decoding: bytes[content], as: UTF8.self)
            if name.isEmpty { throw error(tagLine, column, "a tag has no name") }
            let dynamic = (kind == .partial || kind == .parent) && name.hasPrefix("*")
            if !dynamic, name.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) {
                throw error(tagLine, column, "a tag's name has a space in it: \"\(name)\"")
            }
            tokens.append(.tag(RawTag(kind: kind, name: name, line: tagLine, column: column)))
        }
        return end
    }

    /// `{{=<% %>=}}`: two new delimiters, neither with a space or an equals sign in it.
    private mutating func setDelimiters(_ content: Range<Int>, line: Int, column: Int) throws(MustacheParseError) {
        guard !content.isEmpty, bytes[content.upperBound - 1] == UInt8(ascii: "=") else {
            throw error(line, column, "a set-delimiter tag must end with \"=\", as in {{=<% %>=}}")
        }
        let inner = trimmed(content.lowerBound..<content.upperBound - 1)
        let parts = bytes[inner].split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
        guard parts.count == 2, !parts.contains(where: { $0.contains(UInt8(ascii: "=")) }) else {
            throw error(line, column, "a set-delimiter tag must name two delimiters, as in {{=<% %>=}}")
        }
        open = Array(parts[0])
        close = Array(parts[1])
    }

    /// Ends the current line: when it holds only whitespace and tags that write nothing
    /// themselves (sections, partials, comments...), those tags stand alone, and the line's
    /// whitespace and newline are removed.
    private mutating func endLine(newline: Bool) {
        defer { lineTokens = tokens.count }
        var tags: [Int] = []
        var eligible = true
        for index in lineTokens..<tokens.count {
            switch tokens[index] {
            case .text(let range):
                if !isBlank(range) { eligible = false }
            case .tag(let tag):
                if tag.kind == .variable || tag.kind == .raw { eligible = false }
                tags.append(index)
            case .removed:
                break
            }
        }
        // A block opened and closed on one line is filled in on that line ("  {{$b}}{{/b}}\n").
        // One pass with the names of the blocks opened so far, so a line of many tags stays linear.
        var blockPair = false
        if eligible {
            var opened = Set<String>()
            for index in tags {
                guard case .tag(let tag) = tokens[index] else { continue }
                if tag.kind == .block { opened.insert(tag.name) }
                if tag.kind == .close, opened.contains(tag.name) { blockPair = true }
            }
        }
        guard eligible, !tags.isEmpty, !blockPair else {
            markLead()
            return
        }
        var indentation: [UInt8] = []
        for index in lineTokens..<tags[0] {
            if case .text(let range) = tokens[index] { indentation += bytes[range].filter { $0 == 32 || $0 == 9 } }
        }
        for index in lineTokens..<tokens.count {
            switch tokens[index] {
            case .text: tokens[index] = .removed
            case .tag(var tag):
                tag.standalone = true
                if index == tags[0] { tag.indentation = indentation }
                tokens[index] = .tag(tag)
            case .removed: break
            }
        }
    }

    /// A block tag that is the first thing on its line, after whitespace, indents the lines of
    /// what fills it by that whitespace.
    private mutating func markLead() {
        var lead: [UInt8] = []
        for index in lineTokens..<tokens.count {
            switch tokens[index] {
            case .text(let range):
                guard isBlank(range) else { return }
                lead += bytes[range]
            case .tag(var tag):
                guard tag.kind == .block else { return }
                tag.lead = lead
                tokens[index] = .tag(tag)
                return
            case .removed:
                break
            }
        }
    }

    // MARK: Tree

    private struct Open {
        var tag: RawTag
        var nodes: [Node] = []
        var text: [UInt8] = []
        var overrides: [Block] = []

        mutating func flush(into arena: TextArena) {
            if !text.isEmpty { nodes.append(.text(arena.store(text))) }
            text = []
        }
    }

    private mutating func buildTree() throws(MustacheParseError) -> ([Node], [MustacheTag]) {
        var stack = [Open(tag: RawTag(kind: .section, name: "", line: 0, column: 0))]
        var tags: [MustacheTag] = []
        for token in tokens {
            guard case .tag(let tag) = token else {
                if case .text(let range) = token, stack[stack.count - 1].tag.kind != .parent {
                    stack[stack.count - 1].text += bytes[range]
                }
                continue
            }
            let inParent = stack[stack.count - 1].tag.kind == .parent
            switch tag.kind {
            case .comment, .delimiters:
                continue
            case .close:
                guard stack.count > 1 else { throw error(tag.line, tag.column, "{{/\(tag.name)}} closes no section") }
                var closed = stack.removeLast()
                guard closed.tag.name == tag.name else {
                    throw error(tag.line, tag.column, "{{/\(tag.name)}} closes {{\(sigil(closed.tag.kind))\(closed.tag.name)}} of line \(closed.tag.line)")
                }
                closed.flush(into: arena)
                add(closed, closedStandalone: tag.standalone, to: &stack)
                continue
            default:
                break
            }
            if inParent, tag.kind != .block {
                throw error(tag.line, tag.column, "only blocks ({{$name}}) may stand inside a parent tag, not {{\(sigil(tag.kind))\(tag.name)}}")
            }
            tags.append(MustacheTag(
                kind: publicKind(tag.kind), name: tag.name, line: tag.line, column: tag.column,
                parent: inParent ? stack[stack.count - 1].tag.name : nil,
                conditional: stack.dropFirst().contains { $0.tag.kind == .section || $0.tag.kind == .inverted },
                sections: stack.dropFirst().filter { $0.tag.kind == .section }.map(\.tag.name),
                overriding: stack.contains { $0.tag.kind == .parent }))
            stack[stack.count - 1].flush(into: arena)
            switch tag.kind {
            case .variable, .raw:
                stack[stack.count - 1].nodes.append(.variable(Path(tag.name), escaped: tag.kind == .variable, at: tag.place))
            case .partial:
                stack[stack.count - 1].nodes.append(.partial(reference(tag.name), indentation: tag.standalone ? tag.indentation : nil, at: tag.place))
            case .section, .inverted, .block, .parent:
                guard stack.count <= MustacheTemplate.maximumDepth else {
                    throw error(tag.line, tag.column, "sections nest more than \(MustacheTemplate.maximumDepth) deep")
                }
                stack.append(Open(tag: tag))
            case .close, .comment, .delimiters:
                break
            }
        }
        guard stack.count == 1 else {
            let tag = stack[stack.count - 1].tag
            throw error(tag.line, tag.column, "{{\(sigil(tag.kind))\(tag.name)}} is never closed")
        }
        stack[0].flush(into: arena)
        return (stack[0].nodes, tags)
    }

    private func add(_ closed: Open, closedStandalone: Bool, to stack: inout [Open]) {
        let tag = closed.tag
        switch tag.kind {
        case .section, .inverted:
            stack[stack.count - 1].nodes.append(.section(
                Path(tag.name), closed.nodes, inverted: tag.kind == .inverted, openStandalone: tag.standalone, closeStandalone: closedStandalone,
                at: tag.place))
        case .parent:
            stack[stack.count - 1].nodes.append(.parent(
                reference(tag.name), overrides: closed.overrides, indentation: tag.standalone ? tag.indentation : nil, closeStandalone: closedStandalone,
                at: tag.place))
        case .block where stack[stack.count - 1].tag.kind == .parent:
            // The content that replaces the parent's block: its own indentation is taken off
            // here and the parent's block's put on where it is rendered.
            let indentation = tag.standalone ? firstLineIndentation(closed.nodes) : []
            let block = Block(
                name: MustacheName(tag.name), nodes: Self.strip(indentation, from: closed.nodes, arena: arena), indentation: [],
                openStandalone: tag.standalone, closeStandalone: closedStandalone, place: tag.place)
            if !stack[stack.count - 1].overrides.contains(where: { $0.name == block.name }) { stack[stack.count - 1].overrides.append(block) }
        case .block:
            let indentation = tag.standalone ? (closed.nodes.isEmpty ? tag.indentation : firstLineIndentation(closed.nodes)) : (tag.lead ?? [])
            stack[stack.count - 1].nodes.append(.block(Block(
                name: MustacheName(tag.name), nodes: closed.nodes, indentation: indentation, openStandalone: tag.standalone, closeStandalone: closedStandalone,
                place: tag.place)))
        default:
            break
        }
    }

    /// The whitespace the first line of `nodes` begins with.
    private func firstLineIndentation(_ nodes: [Node]) -> [UInt8] {
        switch nodes.first {
        case .text(let text): Array(text.array.prefix { $0 == 32 || $0 == 9 })
        case .partial(_, let indentation?, _): indentation
        case .parent(_, _, let indentation?, _, _): indentation
        case .block(let block) where block.openStandalone: block.indentation
        default: []
        }
    }

    /// `nodes` with `prefix` taken off the start of each line.
    private static func strip(_ prefix: [UInt8], from nodes: [Node], arena: TextArena) -> [Node] {
        guard !prefix.isEmpty else { return nodes }
        var atLineStart = true
        func stripped(_ indentation: [UInt8]) -> [UInt8] {
            indentation.starts(with: prefix) ? Array(indentation.dropFirst(prefix.count)) : indentation
        }
        func walk(_ nodes: [Node]) -> [Node] {
            nodes.map { node in
                switch node {
                case .text(let literal):
                    let text = literal.array
                    var out: [UInt8] = []
                    var index = 0
                    while index < text.count {
                        if atLineStart, text[index...].starts(with: prefix) {
                            index += prefix.count
                            atLineStart = false
                            if index == text.count { break }  // the indentation of a tag on the line
                        }
                        atLineStart = text[index] == UInt8(ascii: "\n")
                        out.append(text[index])
                        index += 1
                    }
                    return .text(arena.store(out))
                case .partial(let reference, let indentation?, let place):
                    atLineStart = true
                    return .partial(reference, indentation: stripped(indentation), at: place)
                case .block(let block):
                    let nodes = walk(block.nodes)
                    atLineStart = block.closeStandalone
                    return .block(Block(
                        name: block.name, nodes: nodes, indentation: stripped(block.indentation),
                        openStandalone: block.openStandalone, closeStandalone: block.closeStandalone, place: block.place))
                case .section(let path, let body, let inverted, let openStandalone, let closeStandalone, let place):
                    let body = walk(body)
                    atLineStart = closeStandalone
                    return .section(path, body, inverted: inverted, openStandalone: openStandalone, closeStandalone: closeStandalone, at: place)
                default:
                    atLineStart = false
                    return node
                }
            }
        }
        return walk(nodes)
    }

    // MARK: Helpers

    private func reference(_ name: String) -> TemplateReference {
        guard name.hasPrefix("*") else { return .fixed(MustacheName(name)) }
        return .dynamic(Path(String(name.dropFirst().drop(while: { $0 == " " || $0 == "\t" }))))
    }

    private func publicKind(_ kind: RawTag.Kind) -> MustacheTag.Kind {
        switch kind {
        case .raw: .raw
        case .section: .section
        case .inverted: .inverted
        case .partial: .partial
        case .parent: .parent
        case .block: .block
        default: .variable
        }
    }

    private func sigil(_ kind: RawTag.Kind) -> String {
        switch kind {
        case .section: "#"
        case .inverted: "^"
        case .parent: "<"
        case .block: "$"
        default: ""
        }
    }

    private func starts(with pattern: [UInt8], at index: Int) -> Bool {
        guard index + pattern.count <= bytes.count else { return false }
        for offset in 0..<pattern.count where bytes[index + offset] != pattern[offset] { return false }
        return true
    }

    private func find(_ pattern: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + pattern.count <= bytes.count {
            if bytes[index] == pattern[0], starts(with: pattern, at: index) { return index }
            index += 1
        }
        return nil
    }

    private func isBlank(_ range: Range<Int>) -> Bool {
        bytes[range].allSatisfy { $0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 }
    }

    private func trimmed(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        func space(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 10 || byte == 13 }
        while lower < upper, space(bytes[lower]) { lower += 1 }
        while upper > lower, space(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// The column of a byte offset on the current line, counting characters, from 1.
    private mutating func columnOf(_ offset: Int) -> Int {
        if lastColumn.offset < lineStart || lastColumn.offset > offset { lastColumn = (lineStart, 1) }
        let column = bytes[lastColumn.offset..<offset].reduce(lastColumn.column) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        lastColumn = (offset, column)
        return column
    }

    private func lineText(_ number: Int) -> String {
        var current = 1
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            if current == number { return String(decoding: bytes[start..<index], as: UTF8.self) }
            current += 1
            start = index + 1
        }
        return current == number ? String(decoding: bytes[start...], as: UTF8.self) : ""
    }

    private func error(_ line: Int, _ column: Int, _ message: String) -> MustacheParseError {
        MustacheParseError(line: line, column: column, message: message, lineText: lineText(line))
    }

    private func unclosed(_ line: Int, _ column: Int) -> MustacheParseError {
        error(line, column, "a tag is not closed (no \"\(String(decoding: close, as: UTF8.self))\" after it)")
    }
}
