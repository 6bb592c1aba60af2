import Foundation
import Testing
@testable import CardFeedWrite

/// A sink compared with an old file writes only when what it is given differs, and then the whole new file.
@Suite struct ReplacingSinkTests {
    /// Writes `new` through a sink compared with a file holding `old`, in two writes (the second
    /// past the first window of the old file); returns what was written.
    func replace(_ old: [UInt8], with new: [UInt8]) throws -> (OutputSink.Outcome, [UInt8]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cardfeed-sink-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("page.html")
        let staging = folder.appendingPathComponent("new-page.html")
        try Data(old).write(to: target)
        let sink = try OutputSink(path: staging.path, comparingWith: target.path)
        let half = new.count / 2
        try sink.write(new[..<half])
        try sink.write(new[half...])
        let outcome = try sink.finish()
        #expect(try Data(contentsOf: target) == Data(old), "the file compared with is never touched")
        #expect(FileManager.default.fileExists(atPath: staging.path) == (outcome == .written))
        let written = outcome == .written ? [UInt8](try Data(contentsOf: staging)) : old
        return (outcome, written)
    }

    @Test func sameBytesWriteNothing() throws {
        let bytes = (0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let (outcome, _) = try replace(bytes, with: bytes)
        #expect(outcome == .unchanged)
        #expect(try replace([], with: []).0 == .unchanged)
    }

    @Test func anyDifferenceWritesTheWholeNewFile() throws {
        let bytes = (0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var late = bytes
        late[600_000] &+= 1  // in the copied half, past the first chunk
        var early = bytes
        early[10] &+= 1
        for new in [late, early, Array(bytes.prefix(500_000)), bytes + [1, 2, 3], [], [7]] {
            let (outcome, written) = try replace(bytes, with: new)
            #expect(outcome == .written)
            #expect(written == new)
        }
        #expect(try replace([], with: bytes) == (.written, bytes))
    }
}
