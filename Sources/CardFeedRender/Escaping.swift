import CardFeedMustache
import CardFeedModel

/// How text is escaped for one output language: the characters that language gives a meaning
/// to become references, and those it cannot hold at all are dropped (a card's text can hold
/// them through JSON escapes). `{{name}}` uses the escaping of the template's output language
/// (`TemplateSet.escaping(forTemplate:)`); JSON is written by its encoder, which escapes for it.
protocol TextEscaping: SendableMetatype {
    /// What `'` becomes.
    static var apostrophe: StaticString { get }
    /// Bytes that need a look: the five escapes, and those that may start a character the
    /// language forbids. Most text has none, and a table lookup per byte is cheaper than a
    /// switch. Inline, not an array, which was retained and released for every escaped name, by
    /// both rendering threads.
    static var special: InlineArray<256, Bool> { get }
    /// The length of the forbidden character that starts at `index` of valid UTF-8 `bytes`, or 0.
    static func forbiddenLength(_ bytes: Span<UInt8>, at index: Int) -> Int
}

extension TextEscaping {
    /// The escaping as the Mustache engine calls it for `{{name}}`.
    static var append: MustacheLibrary.Escape { { text, out in append(text, to: &out) } }

    /// `text` escaped, for text put in a document outside templates.
    static func escape(_ text: String) -> String {
        var out = MustacheBytes()
        append(text.utf8.span, to: &out)
        return out.string
    }

    static func specialTable(forbidden mayStartForbidden: (UInt8) -> Bool) -> InlineArray<256, Bool> {
        InlineArray { byte in "<>&\"'".utf8.contains(UInt8(byte)) || mayStartForbidden(UInt8(byte)) }
    }

    /// Works on the UTF-8 bytes, copying runs that need nothing in one piece.
    @inline(__always)
    static func append(_ bytes: Span<UInt8>, to out: inout MustacheBytes) {
        var run = 0
        var index = 0
        while let found = bytes.firstIndex(flaggedIn: special, from: index) {
            index = found
            let byte = bytes[index]
            let replacement: StaticString
            switch byte {
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "'"): replacement = apostrophe
            default:
                let skip = forbiddenLength(bytes, at: index)
                guard skip > 0 else {
                    index += 1
                    continue
                }
                out.append(bytes.extracting(run..<index))
                index += skip
                run = index
                continue
            }
            out.append(bytes.extracting(run..<index))
            out.append(replacement)
            index += 1
            run = index
        }
        out.append(bytes.extracting(run..<bytes.count))
    }
}

/// HTML: `'` as `&#39;`, and the characters HTML forbids (`HTMLText`) dropped.
package enum HTMLEscaping: TextEscaping {
    static let apostrophe: StaticString = "&#39;"

    /// `text` as HTML text or an attribute's value, for a page made outside templates (serve's).
    package static func escaped(_ text: String) -> String { escape(text) }
    static let special = specialTable(forbidden: HTMLText.mayStartForbidden)

    @inline(__always)
    static func forbiddenLength(_ bytes: Span<UInt8>, at index: Int) -> Int {
        HTMLText.mayStartForbidden(bytes[index]) ? HTMLText.forbiddenLength(bytes, at: index) : 0
    }
}

/// XML 1.0 (Atom, the sitemap): `'` as `&apos;`, and the characters XML cannot hold at all
/// dropped: the control characters other than tab, line feed and carriage return, and U+FFFE
/// and U+FFFF.
enum XMLEscaping: TextEscaping {
    static let apostrophe: StaticString = "&apos;"
    static let special = specialTable { $0 < 0x20 || $0 == 0xEF }

    @inline(__always)
    static func forbiddenLength(_ bytes: Span<UInt8>, at index: Int) -> Int {
        switch bytes[index] {
        case 0x09, 0x0A, 0x0D: return 0
        case 0x00..<0x20: return 1
        case 0xEF: return index + 2 < bytes.count && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE ? 3 : 0
        default: return 0
        }
    }
}

/// Text inside a JSON string of a template's (a format that `OutputFormat.Escaping.json` names):
/// `"` and `\` escaped, and control characters as `\u00XX`, so the text cannot end the string.
enum JSONEscaping {
    static let append: MustacheLibrary.Escape = { bytes, out in
        var run = 0
        for index in 0..<bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 else { continue }
            out.append(bytes.extracting(run..<index))
            switch byte {
            case UInt8(ascii: "\""): out.append("\\\"")
            case UInt8(ascii: "\\"): out.append("\\\\")
            case 0x0A: out.append("\\n")
            default:
                let hex = Array("0123456789abcdef".utf8)
                out.append("\\u00")
                out.append([hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            }
            run = index + 1
        }
        out.append(bytes.extracting(run..<bytes.count))
    }
}

/// Plain text and Markdown (`OutputFormat.Escaping.text`): written as typed.
enum NoEscaping {
    static let append: MustacheLibrary.Escape = { bytes, out in out.append(bytes) }
}

extension OutputFormat.Escaping {
    /// How the Mustache engine escapes `{{name}}` for this language.
    var append: MustacheLibrary.Escape {
        switch self {
        case .html: HTMLEscaping.append
        case .xml: XMLEscaping.append
        case .json: JSONEscaping.append
        case .text: NoEscaping.append
        }
    }
}
