import Testing
@testable import CardFeedModel

/// Text as it goes into HTML: the characters HTML forbids dropped, white space folded.
@Suite struct HTMLTextTests {
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
}
