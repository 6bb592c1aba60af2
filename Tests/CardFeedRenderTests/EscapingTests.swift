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

    @Test func xmlEscapesAndDropsWhatXMLCannotHold() {
        #expect(XMLEscaping.escape("<a href=\"x\">Tom & Jerry's</a>") == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;")
        // XML 1.0 has no form feed, U+FFFE or U+FFFF; DEL and the other noncharacters it holds.
        let kept = "\u{7F}" + Self.text(0xFDD0) + "é"
        #expect(XMLEscaping.escape("a\u{C}b\u{1}c\t\n\r" + Self.text(0xFFFE) + "d" + Self.text(0xFFFF) + "e" + kept) == "abc\t\n\rde" + kept)
    }
}
