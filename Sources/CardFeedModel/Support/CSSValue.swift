import Foundation

/// Checks values that end up in a stylesheet, so that a theme setting or a card's extras can
/// never close a rule or inject one (`red; } body { display: none`).
package enum CSSValue {
    /// A colour: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb()/rgba()/hsl()/hsla() with plain numbers and
    /// percentages, or a CSS named colour.
    package static func isColor(_ value: String) -> Bool {
        guard parses(value) else { return false }
        let v = value.trimmingCharacters(in: .whitespaces).lowercased()
        if v.hasPrefix("#") {
            let hex = v.dropFirst()
            return [3, 4, 6, 8].contains(hex.count) && hex.allSatisfy(\.isHexDigit)
        }
        for function in ["rgb(", "rgba(", "hsl(", "hsla("] where v.hasPrefix(function) && v.hasSuffix(")") {
            let inner = v.dropFirst(function.count).dropLast()
            let allowed = Set("0123456789.,%/ -deg")
            return !inner.isEmpty && inner.allSatisfy { allowed.contains($0) }
        }
        return namedColors.contains(v)
    }

    /// A length: 0, or a number with a CSS unit (px, rem, em, %, vw, vh, ch, pt).
    package static func isLength(_ value: String) -> Bool {
        guard parses(value), let tokens = CSSToken.tokens(value)?.filter({ $0 != .whitespace }), tokens.count == 1 else { return false }
        switch tokens[0] {
        case .number(let number): return number == 0
        case .percentage(let number): return number >= 0
        case .dimension(let number, let unit): return number >= 0 && ["px", "rem", "em", "vw", "vh", "ch", "pt"].contains(unit.lowercased())
        default: return false
        }
    }

    /// An `object-position`: one or two keywords (left, right, top, bottom, center) or lengths.
    package static func isPosition(_ value: String) -> Bool {
        guard parses(value) else { return false }
        let parts = value.lowercased().split(separator: " ", omittingEmptySubsequences: true)
        return (1...2).contains(parts.count)
            && parts.allSatisfy { ["left", "right", "top", "bottom", "center"].contains($0) || isLength(String($0)) }
    }

    /// A plain number (line heights).
    package static func isNumber(_ value: String) -> Bool {
        guard parses(value), let tokens = CSSToken.tokens(value)?.filter({ $0 != .whitespace }), tokens.count == 1,
              case .number(let number) = tokens[0] else { return false }
        return number >= 0
    }

    /// A font-family list: names, quotes, commas and spaces only, each quote closed (an open one
    /// would run on into the rest of the stylesheet).
    package static func isFontList(_ value: String) -> Bool {
        guard parses(value), let tokens = CSSToken.tokens(value), tokens.contains(where: { $0 != .whitespace }) else { return false }
        return tokens.allSatisfy {
            switch $0 {
            case .ident, .string, .comma, .whitespace, .number, .dimension: true
            default: false
            }
        }
    }

    /// A box-shadow or similar compound value made of lengths, colours and commas.
    package static func isShadow(_ value: String) -> Bool {
        guard parses(value), let tokens = CSSToken.tokens(value), tokens.contains(where: { $0 != .whitespace }) else { return false }
        func allowed(_ token: CSSToken) -> Bool {
            switch token {
            case .ident, .number, .percentage, .dimension, .hash, .comma, .slash, .whitespace: true
            case .function(let name, let inner): shadowFunctions.contains(name.lowercased()) && inner.allSatisfy(allowed)
            case .string: false
            }
        }
        return tokens.allSatisfy(allowed)
    }

    /// Functions a shadow may use: colours and arithmetic (never `url()` or `expression()`).
    static let shadowFunctions: Set<String> = ["rgb", "rgba", "hsl", "hsla", "hwb", "lab", "lch", "oklab", "oklch", "color", "calc", "min", "max", "clamp", "var"]

    /// Whether the value is made of CSS tokens a theme value may hold (see `CSSToken`), and does
    /// not end in a combining mark (which text tools join to the `;` written after it).
    static func parses(_ value: String) -> Bool {
        guard let last = value.unicodeScalars.last, CSSToken.tokens(value) != nil else { return false }
        return ![.nonspacingMark, .spacingMark, .enclosingMark].contains(last.properties.generalCategory)
    }

    static let namedColors: Set<String> = [
        "transparent", "currentcolor", "aliceblue", "antiquewhite", "aqua", "aquamarine", "azure", "beige", "bisque",
        "black", "blanchedalmond", "blue", "blueviolet", "brown", "burlywood", "cadetblue", "chartreuse", "chocolate",
        "coral", "cornflowerblue", "cornsilk", "crimson", "cyan", "darkblue", "darkcyan", "darkgoldenrod", "darkgray",
        "darkgreen", "darkgrey", "darkkhaki", "darkmagenta", "darkolivegreen", "darkorange", "darkorchid", "darkred",
        "darksalmon", "darkseagreen", "darkslateblue", "darkslategray", "darkslategrey", "darkturquoise", "darkviolet",
        "deeppink", "deepskyblue", "dimgray", "dimgrey", "dodgerblue", "firebrick", "floralwhite", "forestgreen",
        "fuchsia", "gainsboro", "ghostwhite", "gold", "goldenrod", "gray", "green", "greenyellow", "grey", "honeydew",
        "hotpink", "indianred", "indigo", "ivory", "khaki", "lavender", "lavenderblush", "lawngreen", "lemonchiffon",
        "lightblue", "lightcoral", "lightcyan", "lightgoldenrodyellow", "lightgray", "lightgreen", "lightgrey",
        "lightpink", "lightsalmon", "lightseagreen", "lightskyblue", "lightslategray", "lightslategrey",
        "lightsteelblue", "lightyellow", "lime", "limegreen", "linen", "magenta", "maroon", "mediumaquamarine",
        "mediumblue", "mediumorchid", "mediumpurple", "mediumseagreen", "mediumslateblue", "mediumspringgreen",
        "mediumturquoise", "mediumvioletred", "midnightblue", "mintcream", "mistyrose", "moccasin", "navajowhite",
        "navy", "oldlace", "olive", "olivedrab", "orange", "orangered", "orchid", "palegoldenrod", "palegreen",
        "paleturquoise", "palevioletred", "papayawhip", "peachpuff", "peru", "pink", "plum", "powderblue", "purple",
        "rebeccapurple", "red", "rosybrown", "royalblue", "saddlebrown", "salmon", "sandybrown", "seagreen", "seashell",
        "sienna", "silver", "skyblue", "slateblue", "slategray", "slategrey", "snow", "springgreen", "steelblue", "tan",
        "teal", "thistle", "tomato", "turquoise", "violet", "wheat", "white", "whitesmoke", "yellow", "yellowgreen",
    ]
}

/// A value as CSS reads it (CSS Syntax Level 3, the tokens a theme value may hold): a value is
/// checked by what it is made of, not by the characters it uses, so that nothing in it can end
/// the declaration or the rule it is written into, open a string, comment or block that runs
/// into the rest of the stylesheet, or escape a character past the check.
enum CSSToken: Equatable {
    case ident(String)
    case number(Double)
    case percentage(Double)
    case dimension(Double, unit: String)
    case string(String)
    case hash(String)
    /// A function and the tokens between its parentheses (balanced, nested ones included).
    case function(String, [CSSToken])
    case comma
    case slash
    case whitespace

    /// The value's tokens, or nil when it holds anything else: a `;`, `{`, `}`, `<`, `!`,
    /// `@`, `:`, brackets, a `(` or `)` that does not belong to a function, an unclosed function
    /// or string, a backslash escape, a comment, a forbidden or control character.
    static func tokens(_ value: String) -> [CSSToken]? {
        var scanner = Scanner(Array(value.unicodeScalars))
        guard let tokens = scanner.tokens(untilClose: false), scanner.atEnd else { return nil }
        return tokens
    }

    private struct Scanner {
        let chars: [Unicode.Scalar]
        var index = 0
        var depth = 0
        init(_ chars: [Unicode.Scalar]) { self.chars = chars }
        var atEnd: Bool { index >= chars.count }
        func peek(_ offset: Int = 0) -> Unicode.Scalar? { index + offset < chars.count ? chars[index + offset] : nil }

        static func isDigit(_ c: Unicode.Scalar?) -> Bool { c.map { ("0"..."9").contains($0) } ?? false }
        static func isNameStart(_ c: Unicode.Scalar?) -> Bool {
            guard let c else { return false }
            if c.value >= 0x80 { return !HTMLText.isForbidden(c) && !c.properties.isWhitespace && c.properties.generalCategory != .format }
            return ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_"
        }
        static func isName(_ c: Unicode.Scalar?) -> Bool { isNameStart(c) || isDigit(c) || c == "-" }

        func startsIdent(at offset: Int = 0) -> Bool {
            if peek(offset) == "-" { return Self.isNameStart(peek(offset + 1)) || peek(offset + 1) == "-" }
            return Self.isNameStart(peek(offset))
        }

        func startsNumber() -> Bool {
            var offset = 0
            if peek() == "+" || peek() == "-" { offset = 1 }
            if Self.isDigit(peek(offset)) { return true }
            return peek(offset) == "." && Self.isDigit(peek(offset + 1))
        }

        mutating func name() -> String {
            var text = ""
            while Self.isName(peek()) { text.unicodeScalars.append(chars[index]); index += 1 }
            return text
        }

        mutating func number() -> Double? {
            var text = ""
            func take() { text.unicodeScalars.append(chars[index]); index += 1 }
            if peek() == "+" || peek() == "-" { take() }
            while Self.isDigit(peek()) { take() }
            if peek() == ".", Self.isDigit(peek(1)) { take(); while Self.isDigit(peek()) { take() } }
            if peek() == "e" || peek() == "E", Self.isDigit(peek(1)) || ((peek(1) == "+" || peek(1) == "-") && Self.isDigit(peek(2))) {
                take(); take(); while Self.isDigit(peek()) { take() }
            }
            return Double(text).flatMap { $0.isFinite ? $0 : nil }
        }

        /// Tokens up to the end, or (inside a function) up to and including its `)`.
        mutating func tokens(untilClose: Bool) -> [CSSToken]? {
            var tokens: [CSSToken] = []
            while let c = peek() {
                switch c {
                case " ", "\t", "\n":
                    while let w = peek(), w == " " || w == "\t" || w == "\n" { index += 1 }
                    tokens.append(.whitespace)
                case ",": index += 1; tokens.append(.comma)
                case "/":
                    if peek(1) == "*" { return nil }  // a comment
                    index += 1; tokens.append(.slash)
                case ")":
                    guard untilClose else { return nil }
                    index += 1
                    return tokens
                case "\"", "'":
                    index += 1
                    var text = ""
                    while let s = peek(), s != c {
                        guard s != "\\", s != "\n", s != "\r", s != "\u{C}", !HTMLText.isForbidden(s) else { return nil }
                        text.unicodeScalars.append(s); index += 1
                    }
                    guard peek() == c else { return nil }  // unclosed
                    index += 1
                    tokens.append(.string(text))
                case "#":
                    index += 1
                    guard Self.isName(peek()) else { return nil }
                    tokens.append(.hash(name()))
                default:
                    if startsNumber() {
                        guard let value = number() else { return nil }
                        if peek() == "%" { index += 1; tokens.append(.percentage(value)) }
                        else if startsIdent() { tokens.append(.dimension(value, unit: name())) }
                        else { tokens.append(.number(value)) }
                    } else if startsIdent() {
                        let ident = name()
                        if peek() == "(" {
                            index += 1
                            depth += 1
                            guard depth <= 8, let inner = self.tokens(untilClose: true) else { return nil }
                            depth -= 1
                            tokens.append(.function(ident, inner))
                        } else {
                            tokens.append(.ident(ident))
                        }
                    } else {
                        return nil
                    }
                }
            }
            return untilClose ? nil : tokens  // a function left open
        }
    }
}
