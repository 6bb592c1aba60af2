#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON value as card files hold it. Objects keep their keys in file order (a card has a
/// dozen keys, so a linear search beats building a dictionary); a repeated key's last value wins.
package enum JSONValue: Sendable {
    case null
    case bool(Bool)
    /// The number, and its integer value when it is written as a whole number that fits.
    case number(Double, integer: Int64?)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    package subscript(key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.last { $0.key == key }?.value
    }

    /// "a number", "text", ... for messages.
    package var noun: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "text"
        case .array: "a list"
        case .object: "an object"
        }
    }

    /// The number as JSON would write it back ("5", "0.25").
    package static func text(of number: Double, integer: Int64?) -> String {
        if let integer { return String(integer) }
        return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}

/// A JSON syntax error at a byte offset of the input, with its line and column for people.
package struct JSONSyntaxError: Error, Equatable {
    package var line: Int
    package var column: Int
    package var message: String
}

/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// Foundation's `JSONSerialization` and `JSONDecoder` each take longer over a large card file
/// than a whole build may (docs/performance.md); this parser reads the bytes once, builds Swift values directly, and knows what card files need:
/// exact line and column for every error, a clear error for invalid UTF-8 and for nesting deeper
/// than `maximumDepth`, and a byte-order mark accepted at the start.
package struct JSONParser {
    static let maximumDepth = 512

    private let bytes: ByteView
    private var position = 0
    /// When set, where each element of the top-level list, or of each list that is a value of
    /// the top-level object, begins (by the object's key; "" for the top-level list): where
    /// the cards of an envelope such as `{"cards": [...]}` are, for messages about them.
    private var entryStarts: [String: [Int]]?
    private var topLevelKey: String?

    private init(_ bytes: ByteView) {
        self.bytes = bytes
    }

    /// Parses a whole document.
    static func parse(_ bytes: ByteView) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes)
        parser.skipByteOrderMark()
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    /// Parses a whole document, and finds where the entries of its lists begin (see `entryStarts`).
    package static func parseRecordingEntries(_ bytes: ByteView) throws(JSONSyntaxError) -> (value: JSONValue, starts: [String: [Int]], start: Int) {
        var parser = JSONParser(bytes)
        parser.entryStarts = [:]
        parser.skipByteOrderMark()
        parser.skipWhitespace()
        let start = parser.position
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return (value, parser.entryStarts ?? [:], start)
    }

    /// Line and column (from 1; columns count characters) of each byte offset, in one pass over
    /// the bytes up to the last of them: lines found with `memchr`, and characters counted only
    /// on an offset's own line (a file of 100,000 cards a line, byte by byte, took 0.05 s).
    package static func positions(of offsets: [Int], in bytes: ByteView) -> [Int: (line: Int, column: Int)] {
        var result: [Int: (line: Int, column: Int)] = [:]
        guard let base = bytes.address else { return offsets.contains(0) ? [0: (1, 1)] : [:] }
        // Every byte before `counted` is counted in `line` and `column`.
        var line = 1, column = 1, counted = 0
        for offset in Set(offsets).sorted() where offset <= bytes.count {
            // (An offset before the file: its first line and column, as a count from it gives.)
            guard offset >= counted else { result[offset] = (line, column); continue }
            while counted < offset, let newline = memchr(base + counted, 0x0A, offset - counted) {
                line += 1
                column = 1
                counted = base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
            }
            for position in counted..<offset where bytes[position] & 0xC0 != 0x80 { column += 1 }
            counted = offset
            result[offset] = (line, column)
        }
        return result
    }

    /// The keys of the object that begins at `offset`, each with where it begins and where its
    /// value begins (a repeated key: its last, whose value counts); nil when no object begins
    /// there. Read again only for the cards a message is about, so that a message can point at
    /// a field's key without the parse of every card keeping where its keys are.
    package static func keys(ofObjectAt offset: Int, in bytes: ByteView) -> [String: (key: Int, value: Int)]? {
        var parser = JSONParser(bytes)
        parser.position = offset
        guard parser.peek == UInt8(ascii: "{") else { return nil }
        parser.position += 1
        var keys: [String: (key: Int, value: Int)] = [:]
        parser.skipWhitespace()
        if parser.peek == UInt8(ascii: "}") { return keys }
        while true {
            parser.skipWhitespace()
            let keyStart = parser.position
            guard parser.peek == UInt8(ascii: "\""), let key = try? parser.parseString() else { return keys }
            parser.skipWhitespace()
            guard parser.peek == UInt8(ascii: ":") else { return keys }
            parser.position += 1
            parser.skipWhitespace()
            let valueStart = parser.position
            guard (try? parser.parseValue(depth: 1)) != nil else { return keys }
            keys[key] = (keyStart, valueStart)
            parser.skipWhitespace()
            guard parser.peek == UInt8(ascii: ",") else { return keys }
            parser.position += 1
        }
    }

    /// Parses a whole document held in `data`.
    package static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
        try data.withByteView { bytes throws(JSONSyntaxError) in try parse(bytes) }
    }

    /// The byte ranges of the elements of a top-level array, found by a quick scan that only
    /// follows strings and brackets, so that the elements can then be parsed on several cores.
    /// Nil when the top level is not an array or the scan finds the structure broken: the
    /// caller then parses sequentially, which reports the error precisely.
    package static func topLevelArrayElements(_ bytes: ByteView) -> [Range<Int>]? {
        var index = 0
        let count = bytes.count
        if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        func skipWhitespace() {
            while index < count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 }
        }
        skipWhitespace()
        guard index < count, bytes[index] == UInt8(ascii: "[") else { return nil }
        index += 1
        skipWhitespace()
        var ranges: [Range<Int>] = []
        if index < count, bytes[index] == UInt8(ascii: "]") { return ranges }
        while index < count {
            skipWhitespace()
            let start = index
            var depth = 0
            // Up to the "," or "]" that ends this element at depth 0.
            scan: while index < count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    // To the closing quote. Most of a card is text, so quotes are found with
                    // memchr (several times faster than a loop over the bytes); a quote after an
                    // odd number of backslashes is escaped, and the search goes on after it.
                    let opening = index
                    var backslashes = 0
                    repeat {
                        guard let found = bytes.firstIndex(of: UInt8(ascii: "\""), from: index + 1) else { return nil }
                        index = found
                        backslashes = 0
                        while index - backslashes - 1 > opening, bytes[index - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
                    } while backslashes % 2 == 1
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    guard depth <= maximumDepth else { return nil }
                case UInt8(ascii: "}"):
                    depth -= 1
                    guard depth >= 0 else { return nil }
                case UInt8(ascii: "]"):
                    if depth == 0 { break scan }
                    depth -= 1
                case UInt8(ascii: ","):
                    if depth == 0 { break scan }
                default:
                    break
                }
                index += 1
            }
            guard index < count, depth == 0 else { return nil }
            var end = index
            while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D || bytes[end - 1] == 0x09 { end -= 1 }
            guard end > start else { return nil }
            ranges.append(start..<end)
            let separator = bytes[index]
            index += 1
            if separator == UInt8(ascii: "]") {
                skipWhitespace()
                return index == count ? ranges : nil
            }
        }
        return nil
    }

    /// Parses the one value that fills `range` of a document (as found by
    /// `topLevelArrayElements`); positions in errors count from the start of the document.
    package static func parseElement(_ bytes: ByteView, _ range: Range<Int>) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes)
        parser.position = range.lowerBound
        let value = try parser.parseValue(depth: 1)
        while parser.position < range.upperBound, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[parser.position]) { parser.position += 1 }
        guard parser.position == range.upperBound else { throw parser.error("expected \",\" or \"]\" after a list item") }
        return value
    }

    // MARK: Values

    private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard let byte = peek else { throw error("the file ends before the JSON value does") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected \(describe(byte)); expected true, false, null, a number, \"text\", a list or an object")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) levels deep") }
        position += 1
        var pairs: [(key: String, value: JSONValue)] = []
        pairs.reserveCapacity(16)  // a card has a dozen or so keys: one allocation instead of five
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            position += 1
            return .object(pairs)
        }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else {
                throw peek == nil ? error("the file ends inside an object") : error("expected a key in quotes")
            }
            let key = try parseString()
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { throw error("expected \":\" after the key \"\(key.prefix(40))\"") }
            position += 1
            skipWhitespace()
            if depth == 1, entryStarts != nil { topLevelKey = key }
            pairs.append((key, try parseValue(depth: depth)))
            if depth == 1 { topLevelKey = nil }
            skipWhitespace()
            guard let byte = peek else { throw error("the file ends inside an object") }
            position += 1
            if byte == UInt8(ascii: "}") { return .object(pairs) }
            guard byte == UInt8(ascii: ",") else { throw error("expected \",\" or \"}\" after a value", back: 1) }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) levels deep") }
        position += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if peek == UInt8(ascii: "]") {
            position += 1
            return .array(items)
        }
        // The entries of a card file's list: the top-level one, or one in the top-level object.
        let recordAs: String? = entryStarts == nil ? nil : depth == 1 ? "" : depth == 2 ? topLevelKey : nil
        while true {
            skipWhitespace()
            if let recordAs { entryStarts?[recordAs, default: []].append(position) }
            items.append(try parseValue(depth: depth))
            skipWhitespace()
            guard let byte = peek else { throw error("the file ends inside a list") }
            position += 1
            if byte == UInt8(ascii: "]") { return .array(items) }
            guard byte == UInt8(ascii: ",") else { throw error("expected \",\" or \"]\" after a list item", back: 1) }
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = position + 1
        // Fast path: no escapes. Most strings in card files are like this.
        let (index, plainASCII) = bytes.endOfPlainText(from: start)
        if index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                if plainASCII { return bytes.string(start..<index) }
                guard let text = bytes.validString(start..<index) else {
                    position = start
                    throw error("the text is not valid UTF-8")
                }
                return text
            }
            if byte < 0x20 {
                position = index
                throw error("a control character (\(describe(byte))) inside text must be escaped")
            }
        }
        guard index < bytes.count else {
            position = start - 1
            throw error("the text starting here is never closed with a quote")
        }
        // Slow path: unescape into a byte buffer.
        var out = bytes.slice(start..<index).array
        position = index
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let text = String(validating: out, as: UTF8.self) else {
                    position = start
                    throw error("the text is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                position += 1
                guard let escape = peek else { break }
                position += 1
                switch escape {
                case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): out.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"): appendUTF8(of: try parseUnicodeEscape(), to: &out)
                default:
                    position -= 2
                    throw error("unknown escape \\\(describe(escape, quoted: false)) in text")
                }
            case 0..<0x20:
                throw error("a control character (\(describe(byte))) inside text must be escaped")
            default:
                out.append(byte)
                position += 1
            }
        }
        position = start - 1
        throw error("the text starting here is never closed with a quote")
    }

    /// The scalar of `\uXXXX` (the `\u` already read), joining a surrogate pair; a lone
    /// surrogate becomes U+FFFD, as browsers do.
    private mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let high = try parseHex4()
        if (0xD800...0xDBFF).contains(high) {
            if position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
                let saved = position
                position += 2
                let low = try parseHex4()
                if (0xDC00...0xDFFF).contains(low) {
                    return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
                }
                position = saved
            }
            return "\u{FFFD}"
        }
        return Unicode.Scalar(high) ?? "\u{FFFD}"
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("\\u needs four hexadecimal digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("\\u needs four hexadecimal digits")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private func appendUTF8(of scalar: Unicode.Scalar, to out: inout [UInt8]) {
        UTF8.encode(scalar) { out.append($0) }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = position
        var negative = false
        if peek == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        guard let first = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { throw error("a number needs digits") }
        var integer: Int64 = 0
        var overflow = false
        if first == UInt8(ascii: "0") {
            position += 1
        } else {
            while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                let (times10, o1) = integer.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                overflow = overflow || o1 || o2
                integer = sum
                position += 1
            }
        }
        var isInteger = true
        if peek == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { throw error("a number needs digits after the decimal point") }
            while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
            guard let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { throw error("a number needs digits in its exponent") }
            while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
        }
        if isInteger && !overflow {
            let value = negative ? -integer : integer
            return .number(Double(value), integer: value)
        }
        let text = bytes.string(start..<position)
        guard let double = Double(text) else { throw error("\(text.prefix(40)) is not a number") }
        return .number(double, integer: nil)
    }

    private mutating func expectWord(_ word: StaticString) throws(JSONSyntaxError) {
        let length = word.utf8CodeUnitCount
        guard bytes.holds(word, at: position) else {
            var end = position
            while end < bytes.count, end - position < 20, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[end] | 0x20) { end += 1 }
            let found = bytes.string(position..<end)
            throw error("unknown word \"\(found)\"; expected true, false, null, a number, \"text\", a list or an object")
        }
        position += length
    }

    // MARK: Whitespace and positions

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func skipByteOrderMark() {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    }

    private func describe(_ byte: UInt8, quoted: Bool = true) -> String {
        switch byte {
        case 0: return "a NUL byte"
        case 0x09: return "a tab"
        case 0x0A: return "a line break"
        case 0x0D: return "a carriage return"
        case 0x20..<0x7F:
            let text = String(UnicodeScalar(byte))
            return quoted ? "\"\(text)\"" : text
        default: return "byte 0x" + String(byte, radix: 16, uppercase: true)
        }
    }

    /// An error at the current position (or `back` bytes before it), with line and column.
    private func error(_ message: String, back: Int = 0) -> JSONSyntaxError {
        let offset = max(0, min(position - back, bytes.count))
        var line = 1
        var lineStart = 0
        var index = 0
        while index < offset {
            if bytes[index] == 0x0A {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        // Columns count characters, not bytes: UTF-8 continuation bytes do not start one.
        var column = 1
        for byte in bytes.slice(lineStart..<offset) where byte & 0xC0 != 0x80 { column += 1 }
        return JSONSyntaxError(line: line, column: column, message: "invalid JSON: " + message)
    }
}

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
