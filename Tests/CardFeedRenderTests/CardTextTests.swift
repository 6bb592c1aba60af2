import Foundation
import Testing
@testable import CardFeedModel
@testable import CardFeedRender

/// A card's words where no HTML goes: feed entries' titles, card pages' titles and descriptions.
@Suite struct CardTextTests {
    /// `shortened` cuts ASCII words on their bytes: the same as cutting their characters and
    /// trimming the space the cut may leave, as feed titles were always cut.
    @Test func shortenedWordsEndInAnEllipsisWithinTheLimit() {
        func expected(_ text: String, _ limit: Int) -> String {
            text.count > limit ? String(text.prefix(limit - 1)).trimmingCharacters(in: .whitespaces) + "…" : text
        }
        let words = ["a", "card", "Überraschung", "🙂", "x", "longer-word", "é"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let text = HTMLText.words((0..<Int.random(in: 0...40, using: &generator)).map { _ in words.randomElement(using: &generator)! }.joined(separator: " "))
            let limit = Int.random(in: 2...40, using: &generator)
            let short = CardText.shortened(text, to: limit)
            #expect(short == expected(text, limit), "\(text) to \(limit)")
            #expect(short.count <= limit)
        }
        #expect(CardText.shortened("Four new drinks", to: 10) == "Four new…")
        #expect(CardText.shortened("Four new drinks", to: 15) == "Four new drinks")
    }
}
