import Foundation
import Testing
@testable import CardFeedSystem


/// The JSON parser: strict, exact positions, clear messages for broken files.
@Suite struct JSONParserTests {
    func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue { try JSONParser.parse(Data(text.utf8)) }

    func failure(_ text: String) -> JSONSyntaxError? {
        do { _ = try parse(text); return nil } catch { return error }
    }

    func failure(_ bytes: [UInt8]) -> JSONSyntaxError? {
        do { _ = try JSONParser.parse(Data(bytes)); return nil } catch { return error }
    }

    @Test func values() throws {
        let value = try parse(#"{"s": "a\"b\\c\/d\u00e9\ud83d\ude00\n", "i": -12, "d": 1.5e2, "t": true, "f": false, "n": null, "a": [1, [], {}], "s": "last"}"#)
        guard case .object(let pairs) = value else { Issue.record("not an object"); return }
        #expect(pairs.count == 8)
        if case .string(let text)? = pairs.first?.value { #expect(text == "a\"b\\c/dé😀\n") }
        if case .string(let text)? = value["s"] { #expect(text == "last", "a repeated key's last value counts") }
        if case .number(let number, let integer)? = value["i"] { #expect(number == -12 && integer == -12) }
        if case .number(let number, let integer)? = value["d"] { #expect(number == 150 && integer == nil) }
        if case .number(_, let integer)? = try? parse("12345678901234567890") { #expect(integer == nil, "too large for Int64") }
    }

    @Test func byteOrderMarkIsAccepted() throws {
        #expect(throws: Never.self) { try JSONParser.parse(Data([0xEF, 0xBB, 0xBF] + Array("[]".utf8))) }
    }

    @Test("errors with line and column", arguments: [
        ("[1,]", 1, 4, "expected true, false"),
        ("{\"a\" 1}", 1, 6, "expected \":\""),
        ("[\"abc", 1, 2, "never closed"),
        ("{\n  \"a\": \"x\ty\"\n}", 2, 10, "control character (a tab)"),
        ("[01]", 1, 3, "expected \",\" or \"]\""),
        ("[1] [2]", 1, 5, "unexpected text after"),
        ("", 1, 1, "ends before"),
        ("[\"\\q\"]", 1, 3, "unknown escape \\q"),
        ("[nul]", 1, 2, "unknown word \"nul\""),
    ])
    func errors(_ text: String, _ line: Int, _ column: Int, _ message: String) throws {
        let error = try #require(failure(text))
        #expect(error.line == line && error.column == column, "\(error)")
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test func invalidUTF8AndNULAreErrors() throws {
        #expect(try #require(failure([0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D])).message.contains("not valid UTF-8"))
        #expect(try #require(failure([0x5B, 0x00, 0x5D])).message.contains("a NUL byte"))
        #expect(try #require(failure([0x5B, 0x22, 0x61, 0x00, 0x22, 0x5D])).message.contains("control character (a NUL byte)"))
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(try #require(failure(deep)).message.contains("nested more than 512 levels deep"))
        #expect(throws: Never.self) { try parse(String(repeating: "[", count: 500) + String(repeating: "]", count: 500)) }
    }

    @Test func elementsOfATopLevelListAreFoundAndParsedOneByOne() throws {
        let text = #"[{"id":"a"}, {"id":"b\"]"} ,{"id":"c"}]"#
        let data = Data(text.utf8)
        let ids = try data.withByteView { bytes -> [String] in
            let elements = try #require(JSONParser.topLevelArrayElements(bytes))
            return try elements.map { range in
                guard case .string(let id)? = try JSONParser.parseElement(bytes, range)["id"] else { return "" }
                return id
            }
        }
        #expect(ids == ["a", "b\"]", "c"])
        #expect(Data("{}".utf8).withByteView { JSONParser.topLevelArrayElements($0) } == nil)
        #expect(Data("[1, [2".utf8).withByteView { JSONParser.topLevelArrayElements($0) } == nil, "a broken list: the sequential parser reports it")
    }

    /// The scan jumps from quote to quote; a quote is escaped only after an odd run of backslashes.
    @Test func theElementScanFollowsEscapedQuotesAndBackslashes() throws {
        func elements(_ text: String) -> [String]? {
            Data(text.utf8).withByteView { bytes in
                JSONParser.topLevelArrayElements(bytes)?.map { bytes.string($0) }
            }
        }
        #expect(elements(#"["a\\", "\\\"],", "\"", "", "\\\\"]"#) == [#""a\\""#, #""\\\"],""#, #""\"""#, #""""#, #""\\\\""#])
        #expect(elements(#"[{"k": "\\"}, {"k": "x\\\"}"}]"#) == [#"{"k": "\\"}"#, #"{"k": "x\\\"}"}"#])
        #expect(elements(#"["abc\"]"#) == nil, "the quote is escaped: the string never ends")
        #expect(elements(#"["abc"#) == nil)
        #expect(elements(#"[""#) == nil)
    }

    /// Lines and columns of offsets, several on a line, past characters of several bytes,
    /// newlines at and just before an offset, as a byte-by-byte count finds them.
    @Test func positionsAreThoseOfAByteByByteCount() {
        let text = "[\n{\"é\": 1}, {\"b\": \"😀\"},\n\n  {\"c\": 3}\n]\n"
        let bytes = Array(text.utf8)
        var expected: [Int: (line: Int, column: Int)] = [:]
        var line = 1, column = 1
        for offset in 0...bytes.count {
            expected[offset] = (line, column)
            guard offset < bytes.count else { break }
            if bytes[offset] == 0x0A { line += 1; column = 1 } else if bytes[offset] & 0xC0 != 0x80 { column += 1 }
        }
        let offsets = Array(0...bytes.count).reversed() + [3, 3]
        let found = Data(bytes).withByteView { JSONParser.positions(of: offsets, in: $0) }
        #expect(found.count == bytes.count + 1)
        for offset in 0...bytes.count {
            #expect(found[offset]?.line == expected[offset]?.line && found[offset]?.column == expected[offset]?.column, "offset \(offset)")
        }
        let some = Data(bytes).withByteView { JSONParser.positions(of: [bytes.count - 1, 14], in: $0) }
        #expect(some[14]?.line == expected[14]?.line && some[14]?.column == expected[14]?.column)
        #expect(some[bytes.count - 1]?.line == expected[bytes.count - 1]?.line && some[bytes.count - 1]?.column == expected[bytes.count - 1]?.column)
    }
}
