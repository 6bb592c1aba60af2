/// A stylesheet as blocks, enough to rewrite it rule by rule (`EmbedStylesheet`): each rule's
/// prelude (a selector list, or an at-rule's name and condition) with where it begins, and its
/// contents, declarations and nested rules alike. Comments are left out; strings, escapes and
/// brackets are kept whole, so a `{`, `;` or `}` inside one ends nothing.
enum CSSItem: Equatable {
    /// `name: value`, its `!important` taken off the value and kept as a flag.
    case declaration(name: String, value: String, important: Bool)
    /// A rule with a block: `prelude { items }` (a style rule, or `@media …`, `@font-face`…).
    case block(prelude: String, at: CSSPosition, items: [CSSItem])
    /// An at-rule without a block: `@import …;`, `@layer a, b;`.
    case statement(prelude: String, at: CSSPosition)
}

/// A line and column in a stylesheet, from 1.
struct CSSPosition: Equatable {
    var line: Int
    var column: Int
}

enum CSSBlocks {
    /// The stylesheet's top-level items.
    static func parse(_ css: String) -> [CSSItem] {
        var parser = Parser(Array(css.unicodeScalars))
        return parser.items()
    }

    private struct Parser {
        let text: [Unicode.Scalar]
        var index = 0
        var line = 1
        var column = 1

        init(_ text: [Unicode.Scalar]) { self.text = text }

        /// Items up to the end or the `}` that closes the block they are in (consumed).
        mutating func items() -> [CSSItem] {
            var found: [CSSItem] = []
            while true {
                skipSpaceAndComments()
                guard index < text.count else { return found }
                if text[index] == "}" {
                    advance()
                    return found
                }
                if text[index] == ";" {
                    advance()
                    continue
                }
                let start = CSSPosition(line: line, column: column)
                let (prelude, end) = component()
                let trimmed = prelude.trimmingCSSSpace()
                switch end {
                case "{":
                    advance()
                    let inner = items()
                    found.append(.block(prelude: trimmed, at: start, items: inner))
                case "}", nil:
                    // The block's last item without a `;`: the `}` is the caller's.
                    if let item = Self.item(trimmed, at: start) { found.append(item) }
                default:
                    advance()
                    if let item = Self.item(trimmed, at: start) { found.append(item) }
                }
            }
        }

        private static func item(_ text: String, at start: CSSPosition) -> CSSItem? {
            guard !text.isEmpty else { return nil }
            if text.hasPrefix("@") { return .statement(prelude: text, at: start) }
            guard let colon = text.firstIndex(of: ":") else { return nil }
            let name = text[..<colon].trimmingCSSSpace()
            var value = text[text.index(after: colon)...].trimmingCSSSpace()
            var important = false
            if let bang = value.lastIndex(of: "!"), value[value.index(after: bang)...].trimmingCSSSpace().lowercased() == "important" {
                important = true
                value = value[..<bang].trimmingCSSSpace()
            }
            return .declaration(name: name, value: value, important: important)
        }

        /// The text up to the first `{`, `;` or `}` outside strings and brackets (not consumed),
        /// without comments; and that character, nil at the end.
        private mutating func component() -> (String, Unicode.Scalar?) {
            var out = String.UnicodeScalarView()
            var depth = 0
            while index < text.count {
                let character = text[index]
                if character == "/", index + 1 < text.count, text[index + 1] == "*" {
                    skipComment()
                    continue
                }
                if depth == 0, character == "{" || character == ";" || character == "}" { return (String(out), character) }
                if character == "\"" || character == "'" {
                    out.append(contentsOf: string())
                    continue
                }
                if character == "\\" {
                    out.append(character)
                    advance()
                    if index < text.count {
                        out.append(text[index])
                        advance()
                    }
                    continue
                }
                if character == "(" || character == "[" { depth += 1 }
                if character == ")" || character == "]" { depth = max(0, depth - 1) }
                out.append(character)
                advance()
            }
            return (String(out), nil)
        }

        /// A quoted string, its quotes and escapes included.
        private mutating func string() -> String.UnicodeScalarView {
            var out = String.UnicodeScalarView()
            let quote = text[index]
            out.append(quote)
            advance()
            while index < text.count {
                let character = text[index]
                out.append(character)
                advance()
                if character == "\\", index < text.count {
                    out.append(text[index])
                    advance()
                } else if character == quote || character == "\n" {
                    break
                }
            }
            return out
        }

        private mutating func skipSpaceAndComments() {
            while index < text.count {
                if text[index].properties.isWhitespace {
                    advance()
                } else if text[index] == "/", index + 1 < text.count, text[index + 1] == "*" {
                    skipComment()
                } else {
                    return
                }
            }
        }

        private mutating func skipComment() {
            advance()
            advance()
            while index < text.count {
                if text[index] == "*", index + 1 < text.count, text[index + 1] == "/" {
                    advance()
                    advance()
                    return
                }
                advance()
            }
        }

        private mutating func advance() {
            if text[index] == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += 1
        }
    }
}

extension StringProtocol {
    /// Without the white space CSS skips around a token.
    func trimmingCSSSpace() -> String {
        let scalars = Array(unicodeScalars)
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
