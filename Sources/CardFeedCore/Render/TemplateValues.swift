import CardFeedMustache

/// How `{{name}}` escapes text in every template: `< > & " '` become references, and the
/// characters HTML forbids (`HTMLText`), which a card's text can hold but a valid page cannot,
/// are dropped. Works on the UTF-8 bytes, copying runs that need nothing in one piece.
enum HTMLEscaping {
    static let append: MustacheLibrary.Escape = { text, out in append(text, to: &out) }

    /// `text` escaped, for the few places that build HTML outside templates.
    static func escape(_ text: String) -> String {
        var out = MustacheBytes()
        text.withUTF8Bytes { append($0, to: &out) }
        return String(decoding: out.buffer, as: UTF8.self)
    }

    /// Bytes that need a look: the five HTML escapes, and those that may start a character HTML
    /// forbids. Most text has none, and a table lookup per byte is cheaper than the switch. The
    /// table is plain memory, made once and never freed: an array here was retained and
    /// released for every escaped name, by both rendering threads.
    nonisolated(unsafe) private static let special: UnsafePointer<Bool> = {
        let table = UnsafeMutablePointer<Bool>.allocate(capacity: 256)
        for byte in 0...255 { table[byte] = "<>&\"'".utf8.contains(UInt8(byte)) || HTMLText.mayStartForbidden(UInt8(byte)) }
        return UnsafePointer(table)
    }()

    private static func append(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout MustacheBytes) {
        let special = Self.special
        var run = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if !special[Int(byte)] {
                index += 1
                continue
            }
            let replacement: StaticString
            switch byte {
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "'"): replacement = "&#39;"
            default:
                let skip = HTMLText.mayStartForbidden(byte) ? HTMLText.forbiddenLength(bytes, at: index) : 0
                guard skip > 0 else {
                    index += 1
                    continue
                }
                out.append(UnsafeBufferPointer(rebasing: bytes[run..<index]))
                index += skip
                run = index
                continue
            }
            out.append(UnsafeBufferPointer(rebasing: bytes[run..<index]))
            out.append(replacement)
            index += 1
            run = index
        }
        out.append(UnsafeBufferPointer(rebasing: bytes[run..<bytes.count]))
    }
}

extension Optional where Wrapped == String {
    /// The text for a template, or no such field, so that `{{#name}}` skips it.
    var mustache: MustacheValue? { map(MustacheValue.text) }
}

extension MustacheValue {
    static func objects(_ values: [some MustacheObject]) -> MustacheValue { .list(values.map { .object($0) }) }
}
