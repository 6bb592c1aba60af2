/// Characters that may not appear in an HTML document at all: the control characters other than
/// tab, line feed, form feed and carriage return (C0, DEL and C1), and the Unicode
/// noncharacters (U+FDD0…U+FDEF and the last two code points of every plane). A card can hold
/// them through JSON escapes (`"\u0001"`); the W3C checker calls each a "forbidden code point",
/// and browsers treat them as parse errors. All text put in a page drops them.
package enum HTMLText {
    package static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 { return !(value == 0x09 || value == 0x0A || value == 0x0C || value == 0x0D) }
        return (0x7F...0x9F).contains(value) || (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE
    }

    package static func removingForbiddenCharacters(_ text: String) -> String {
        // The usual case, a text with no byte that could start a forbidden character, is
        // settled on its UTF-8 bytes, without decoding Unicode scalars: every text of every card
        // comes through here.
        let clean = text.utf8.withContiguousStorageIfAvailable { !$0.contains(where: mayStartForbidden) } ?? false
        guard !clean, text.unicodeScalars.contains(where: isForbidden) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.filter { !isForbidden($0) }))
    }

    /// The words of `text`, for where it is shown as one line of plain text (a title, a meta
    /// description): forbidden characters dropped, then each run of white space one space, none
    /// at either end.
    package static func words(_ text: String) -> String {
        // ASCII text, the usual case (a card page describes every card by its words), is done in
        // one pass over its bytes: splitting `Character`s asks Unicode's tables about each one.
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var spaced = false
            var word = 0  // where the run of letters being read began
            for (index, byte) in bytes.enumerated() where byte < 0x21 || byte == 0x7F {
                // The run before this byte, copied whole.
                if word < index {
                    if spaced { out.append(0x20) }
                    out.append(contentsOf: bytes[word..<index])
                    spaced = false
                }
                word = index + 1
                // White space as `Character.isWhitespace` has it, but the vertical tab, which is
                // forbidden; the other controls are forbidden too: dropped, as if never there.
                if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D { spaced = !out.isEmpty }
            }
            if word < bytes.count {
                if spaced { out.append(0x20) }
                out.append(contentsOf: bytes[word...])
            }
            return String(decoding: out, as: UTF8.self)
        }
        if let ascii = ascii ?? nil { return ascii }
        return removingForbiddenCharacters(text).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The length of the forbidden character that starts at `index` of valid UTF-8 `bytes`, or 0.
    @inline(__always)
    package static func forbiddenLength(_ bytes: Span<UInt8>, at index: Int) -> Int {
        let byte = bytes[index]
        switch byte {
        case 0x09, 0x0A, 0x0C, 0x0D: return 0
        case 0x00..<0x20, 0x7F: return 1
        case 0xC2: return index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]) ? 2 : 0  // C1 controls
        case 0xEF:
            guard index + 2 < bytes.count else { return 0 }
            let (second, third) = (bytes[index + 1], bytes[index + 2])
            return (second == 0xB7 && (0x90...0xAF).contains(third)) || (second == 0xBF && third >= 0xBE) ? 3 : 0
        case 0xF0...0xF4:
            guard index + 3 < bytes.count else { return 0 }
            return bytes[index + 1] & 0x0F == 0x0F && bytes[index + 2] == 0xBF && bytes[index + 3] >= 0xBE ? 4 : 0
        default: return 0
        }
    }

    /// A byte that may start a forbidden character (a quick test before `forbiddenLength`).
    @inline(__always)
    package static func mayStartForbidden(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x0A && byte != 0x09 && byte != 0x0D && byte != 0x0C) || byte == 0x7F || byte == 0xC2 || byte == 0xEF || byte >= 0xF0
    }
}
