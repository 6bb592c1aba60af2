import Mustache

/// Text as templates see it. swift-mustache looks a name up in every object on its context
/// stack, and for a plain `String` that means building a `Mirror` of it: inside
/// `{{#title}}…{{url}}…{{/title}}` every lookup of `url` first reflected the title. Wrapped,
/// the lookup is one protocol cast that answers "no such name". It still renders escaped
/// with `{{name}}`, raw with `{{{name}}}`, and takes the string transforms (`uppercased(title)`).
struct Text: MustacheParent, MustacheCustomRenderable, MustacheTransformable, CustomStringConvertible {
    let value: String

    init(_ value: String) { self.value = value }

    func child(named: String) -> Any? { nil }
    var renderText: String { value }
    var isNull: Bool { false }
    var description: String { value }
    func transform(_ name: String) -> Any? { value.transform(name) }
}

/// A value with a few named fields, looked up without reflection (swift-mustache falls back to
/// `Mirror` for plain structs, a linear search per lookup). Each conforming type lists its
/// fields once, in `child(named:)`; `TemplateLinter` knows their names.
protocol TemplateValue: MustacheParent {}

extension Optional where Wrapped == String {
    /// The text for a template, or nothing, so that `{{#name}}` skips it.
    var text: Text? { map(Text.init) }
}

/// HTML escaping with the same output as swift-mustache's own (`< > & " '`), but reading UTF-8
/// bytes and returning text that needs no escaping as it is: the library's version walks
/// grapheme clusters through a dictionary and copies every string, which was the largest single
/// cost of rendering cards (18% of a build, by perf). It also drops the characters HTML forbids
/// (`HTMLText`), which a card's text can hold but a valid page cannot.
struct FastHTMLContentType: MustacheContentType {
    func escapeText(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            guard let first = bytes.indices.first(where: { Self.needsEscape(bytes[$0]) || (HTMLText.mayStartForbidden(bytes[$0]) && HTMLText.forbiddenLength(bytes, at: $0) > 0) }) else { return nil }
            var out = [UInt8]()
            out.reserveCapacity(bytes.count + 16)
            out.append(contentsOf: bytes[..<first])
            var index = first
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
                case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "'"): out.append(contentsOf: "&#39;".utf8)
                default:
                    if HTMLText.mayStartForbidden(byte) {
                        let skip = HTMLText.forbiddenLength(bytes, at: index)
                        if skip > 0 {
                            index += skip
                            continue
                        }
                    }
                    out.append(byte)
                }
                index += 1
            }
            return String(decoding: out, as: UTF8.self)
        } ?? text
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }

    /// Every template is parsed with this line in front, which makes it escape through this
    /// type (a standalone tag: it leaves nothing in the output).
    static let pragma = "{{%CONTENT_TYPE:HTML}}\n"

    /// Registered under swift-mustache's own name "HTML", once, before any template is parsed.
    static let registered: Void = MustacheContentTypes.register(FastHTMLContentType(), named: "HTML")
}
