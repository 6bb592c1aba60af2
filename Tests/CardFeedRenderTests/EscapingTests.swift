import Testing
@testable import CardFeedModel
@testable import CardFeedRender


/// One escaping per output language, each dropping what its language cannot hold.
@Suite struct EscapingTests {
    /// A noncharacter, which Swift's string literals refuse to spell.
    static func text(_ scalar: UInt32) -> String { String(Character(Unicode.Scalar(scalar)!)) }

    @Test func htmlEscapesAndDropsWhatHTMLForbids() {
        #expect(HTMLEscaping.escape("<a href=\"x\">Tom & Jerry's</a>") == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;")
        // Form feed is allowed in HTML; DEL, a C1 control and a noncharacter are not.
        #expect(HTMLEscaping.escape("a\u{C}b\u{7F}c\u{85}d" + Self.text(0xFDD0) + "e" + Self.text(0xFFFF) + "f") == "a\u{C}bcdef")
    }

    /// `HTMLText.words` reads ASCII text on its bytes, in one pass: it must say what dropping the
    /// forbidden characters and then folding the white space between `Character`s says.
    @Test func wordsAreTheTextsWithoutForbiddenCharactersAndWithSpaceFolded() {
        func expected(_ text: String) -> String {
            HTMLText.removingForbiddenCharacters(text).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        let pieces = ["a", "Word", " ", "  ", "\t", "\n", "\r\n", "\u{B}", "\u{C}", "\u{1}", "\u{7F}", "\u{1F}", "x\u{1}y", "é", "\u{A0}", "\u{2003}"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let text = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(HTMLText.words(text) == expected(text), "\(Array(text.unicodeScalars))")
        }
        #expect(HTMLText.words(" Two\u{B}words \t here\n") == "Twowords here")
    }

    @Test func xmlEscapesAndDropsWhatXMLCannotHold() {
        #expect(XMLEscaping.escape("<a href=\"x\">Tom & Jerry's</a>") == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;")
        // XML 1.0 has no form feed, U+FFFE or U+FFFF; DEL and the other noncharacters it holds.
        let kept = "\u{7F}" + Self.text(0xFDD0) + "é"
        #expect(XMLEscaping.escape("a\u{C}b\u{1}c\t\n\r" + Self.text(0xFFFE) + "d" + Self.text(0xFFFF) + "e" + kept) == "abc\t\n\rde" + kept)
    }
}
