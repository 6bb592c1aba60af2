import Foundation
import Testing
@testable import CardFeedBuild
@testable import CardFeedCLI

/// The build summary's lines about the build cache, from reports made as a build with a cache
/// would make them.
@Suite struct SummaryTests {
    func report(reused: Int?, note: String? = nil, output: Bool = true) -> BuildReport {
        var report = BuildReport()
        report.cardsShown = 100_000
        report.filesWritten = 6
        report.filesUnchanged = 101_990
        report.comparedWithPrevious = true
        report.cardsReused = reused
        report.cacheNote = note
        report.output = output ? URL(fileURLWithPath: "/tmp/site/public") : nil
        return report
    }

    @Test func aBuildFromTheCacheSaysHowMuchItReused() {
        let lines = Summary(report(reused: 99_998)).lines
        let wrote = try? #require(lines.firstIndex { $0.hasPrefix("Wrote 101996 files") })
        #expect(wrote.map { lines[$0 + 1] } == "Reused 99998 of 100000 cards; 6 files written.", "\(lines)")
        #expect(Summary(report(reused: 1)).cacheLines == ["Reused 1 of 100000 cards; 6 files written."])
    }

    @Test func aCheckSaysWhatItReusedAndNothingOfFilesWritten() {
        let lines = Summary(report(reused: 40, output: false)).lines
        let checked = try? #require(lines.firstIndex { $0.hasPrefix("Checked in") })
        #expect(checked.map { lines[$0 + 1] } == "Reused 40 of 100000 cards.", "\(lines)")
    }

    @Test func withoutACacheTheSummaryIsAsBefore() {
        let lines = Summary(report(reused: nil)).lines
        #expect(!lines.contains { $0.hasPrefix("Reused") || $0.hasPrefix("note:") }, "\(lines)")
        #expect(Summary(report(reused: nil)).cacheLines.isEmpty)
    }

    @Test func aCacheNoteIsOneNoteLineNoWarning() {
        let note = "the build cache .cardfeed-cache was made by cardfeed 0.9.0: not used; this build made a new one"
        let summary = Summary(report(reused: nil, note: note))
        #expect(summary.cacheLines == ["note: " + note])
        #expect(summary.report.diagnostics.all.isEmpty)
        // With reuse and a note (a cache used, but not kept): both, the count first.
        #expect(Summary(report(reused: 5, note: "x")).cacheLines == ["Reused 5 of 100000 cards; 6 files written.", "note: x"])
    }
}
