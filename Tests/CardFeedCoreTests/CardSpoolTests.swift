import Foundation
import Testing

@testable import CardFeedCore

/// The spool that rebuilds and `serve` render the cards into, in a file or in memory, and that pages copy their cards from.
@Suite struct CardSpoolTests {
    @Test func pagesCopyTheirCardsFromTheSpool() throws {
        // Runs of 256 KB or more are copied by the kernel, shorter ones read a window at a time.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cardfeed-spool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cards = ["a", "b", "c", "d", "e", "f"].enumerated().map { String(repeating: $1, count: $0 < 3 ? 3 : 100_000) }
        for spool in [try CardSpool(folder: folder), CardSpool()] {
            try spool.append(Array(cards[..<4]), at: 0..<4)
            try spool.append(Array(cards[4...]), at: 4..<6)
            #expect(spool.count == 6)
            for positions in [[0, 1, 2], [0, 2, 4], [3, 4, 5], [2, 3, 4, 5], [5]] {
                let copy = folder.appendingPathComponent("copy.html")
                let sink = try OutputSink(path: copy.path)
                try spool.copyEachWithNewline(positions[...], to: sink)
                try sink.finish()
                #expect(try String(contentsOf: copy, encoding: .utf8) == positions.map { cards[$0] + "\n" }.joined(), "\(spool.path): cards \(positions)")
                #expect(try positions.map { try spool.html(at: $0) } == positions.map { cards[$0] })
            }
        }
    }
}
