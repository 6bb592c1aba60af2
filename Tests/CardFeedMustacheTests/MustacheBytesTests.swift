import Testing

@testable import CardFeedMustache

struct MustacheBytesTests {
    /// Pieces, single bytes and static text across many growths keep every byte in order.
    @Test func appendsAcrossGrowth() {
        var bytes = MustacheBytes(capacity: 1)
        var expected: [UInt8] = []
        for round in 0..<300 {
            let piece = [UInt8](repeating: UInt8(round % 251), count: round % 37)
            bytes.append(piece)
            expected += piece
            bytes.append(UInt8(round % 256))
            expected.append(UInt8(round % 256))
            bytes.append("&amp;")
            expected += Array("&amp;".utf8)
        }
        bytes.append([UInt8]())
        #expect(bytes.count == expected.count)
        #expect(bytes.array == expected)
    }
}
