import Foundation
import Testing
@testable import CardFeedBuild
@testable import CardFeedLoad
@testable import CardFeedModel


/// A long build tells its progress observer how far loading and rendering are, batch by batch.
@Suite struct BuildProgressTests {
    /// Everything an observer was told, in order.
    final class Recorder: BuildProgressObserver, @unchecked Sendable {
        enum Event: Equatable {
            case progress(StepProgress)
            case ended
        }
        private let lock = NSLock()
        private var recorded: [Event] = []
        var events: [Event] { lock.withLock { recorded } }
        /// The progress updates alone.
        var updates: [StepProgress] {
            events.compactMap { event in
                if case .progress(let progress) = event { return progress } else { return nil }
            }
        }
        func progress(_ progress: StepProgress) { lock.withLock { recorded.append(.progress(progress)) } }
        func stepEnded() { lock.withLock { recorded.append(.ended) } }
    }

    static func cards(_ ids: Range<Int>) -> String {
        "[" + ids.map { cardJSON(["id": "c\($0)", "type": "text_announcement", "title": "Card \($0)", "description": "Text", "created": 1_700_000_000 + $0]) }.joined(separator: ",") + "]"
    }

    @Test func loadAndRenderReportEachBatchAndEveryStepEnds() throws {
        // Two card files: load progress counts entries over both and its share follows their bytes.
        let site = try TempSite(["cards.json": Self.cards(0..<6), "cards/more.json": Self.cards(6..<10)])
        defer { site.remove() }
        let recorder = Recorder()
        var options = site.options(pageSize: 3)
        options.renderBatchSize = 4
        options.progress = recorder
        let report = try SiteBuilder(options: options, destination: .folder(site.output), logger: .quiet).run()
        #expect(report.cardsShown == 10)

        let events = recorder.events
        #expect(events.filter { $0 == .ended }.count == 4, "each of the four steps ends once")
        let updates = recorder.updates
        let load = updates.filter { $0.step == 1 }
        #expect(load.map(\.done) == [6, 10])
        #expect(load.allSatisfy { $0.title == "Load cards" && $0.steps == 4 && $0.unit == "entries" && $0.total == nil })
        let firstFileShare = try Double(Data(contentsOf: site.root.appendingPathComponent("cards.json")).count)
            / Double(Data(contentsOf: site.root.appendingPathComponent("cards.json")).count + Data(contentsOf: site.root.appendingPathComponent("cards/more.json")).count)
        #expect(abs(load[0].fraction - firstFileShare) < 1e-9)
        #expect(load.last?.fraction == 1)

        let render = updates.filter { $0.step == 3 }
        #expect(render.map(\.done) == [4, 8, 10])
        #expect(render.map(\.fraction) == [0.4, 0.8, 1])
        #expect(render.allSatisfy { $0.title == "Render pages" && $0.total == 10 && $0.unit == "cards" })
        #expect(updates.allSatisfy { $0.step == 1 || $0.step == 3 }, "select and write are quick: no progress")

        // Each step's updates come before it ends, in step order.
        let order = events.map { event -> Int in
            if case .progress(let progress) = event { return progress.step } else { return 0 }
        }
        #expect(order == [1, 1, 0, 0, 3, 3, 3, 0, 0])
    }

    @Test func loadSharesFollowTheBytesReadAlsoInsideAnEnvelope() throws {
        // An envelope of more than one batch: its share grows batch by batch, not at its end.
        let envelope = "{\"cards\": " + Self.cards(0..<5000) + ", \"full_sync\": true}"
        let site = try TempSite(["cards.json": Self.cards(5000..<5010), "cards/sync.json": envelope])
        defer { site.remove() }
        let recorder = Recorder()
        var loader = CardLoader(site: site.site)
        loader.progress = { entries, fraction in
            recorder.progress(StepProgress(step: 1, steps: 1, title: "", done: entries, total: nil, unit: "", fraction: fraction, seconds: 0))
        }
        #expect(loader.load().cards.count == 5010)
        let first = Double(Self.cards(5000..<5010).utf8.count), second = Double(envelope.utf8.count)
        let seen = recorder.updates.map { (entries: $0.done, fraction: $0.fraction) }
        #expect(seen.map(\.entries) == [10, 10 + 4096, 5010])
        #expect(abs(seen[0].fraction - first / (first + second)) < 1e-9)
        #expect(abs(seen[1].fraction - (first + second * 4096 / 5000) / (first + second)) < 1e-9)
        #expect(seen[2].fraction == 1)
    }

    @Test func theWriteStepReportsTheFilesItWrites() throws {
        // Pages stream into the output while the cards render (step 3); step 4 writes the other
        // files: assets and, here, 150 files of static/.
        var files = ["cards.json": Self.cards(0..<3)]
        for number in 0..<150 { files["static/s\(number).txt"] = "\(number)" }
        let site = try TempSite(files)
        defer { site.remove() }
        let recorder = Recorder()
        var options = site.options(pageSize: 1)
        options.progress = recorder
        _ = try SiteBuilder(options: options, destination: .folder(site.output), logger: .quiet).run()
        let write = recorder.updates.filter { $0.step == 4 }
        let total = try #require(write.first?.total)
        #expect(total > 150)
        #expect(write.map(\.done) == Array(stride(from: 64, through: total, by: 64)))
        #expect(write.allSatisfy { $0.total == total && $0.unit == "files" && $0.title.hasPrefix("Write ") })
        #expect(write.map(\.fraction) == write.map { Double($0.done) / Double(total) })
    }

    @Test func aFailedRenderStillEndsItsStep() throws {
        // A card template that includes itself while the card has an id: the render step fails
        // at its depth limit, half way through writing the pages.
        let site = try TempSite([
            "cards.json": Self.cards(0..<3),
            "templates/cards/text_announcement.mustache": "{{#id}}{{>cards.text_announcement}}{{/id}}",
        ])
        defer { site.remove() }
        let recorder = Recorder()
        var options = site.options()
        options.progress = recorder
        #expect(throws: BuildFailure.self) { try SiteBuilder(options: options, destination: .folder(site.output), logger: .quiet).run() }
        let events = recorder.events
        #expect(events.filter { $0 == .ended }.count == 3, "load, select and the failed render step")
        #expect(events.last == .ended)
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.root.path).sorted() == ["cards.json", "templates"], "nothing written")
    }

    /// `check` and `explain` run the first steps of the build's own list, and the lines' numbers
    /// count the steps a build runs that print one.
    @Test func checkAndExplainRunTheFirstStepsOfTheBuildsList() {
        let options = BuildOptions(site: SiteFolder("/nonexistent/cardfeed-site"), now: 0)
        let build = SiteBuilder(options: options, destination: .folder(options.site.defaultOutput), logger: .quiet)
        let check = SiteBuilder(options: options, destination: .discarded, logger: .quiet)
        let names = SiteBuilder.steps.map(\.name)
        let checked = SiteBuilder.steps.filter { $0.runs(check, true) }.map(\.name)
        #expect(checked == Array(names.prefix(checked.count)))
        #expect(checked.last == .render)
        #expect(SiteBuilder.explainedSteps.map(\.name) == [.configure, .load, .rules])
        #expect(build.numberedSteps(search: true) == [.load, .select, .render, .index, .write])
        #expect(build.numberedSteps(search: false) == [.load, .select, .render, .write])
        #expect(check.numberedSteps(search: true) == [.load, .select, .render])
    }
}
