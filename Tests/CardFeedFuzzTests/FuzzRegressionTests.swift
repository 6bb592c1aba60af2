import Foundation
import Testing

@testable import CardFeedFuzz
import CardFeedBuild
import CardFeedRender

/// Every input the fuzzer found a problem with, replayed through the fuzz target's checks: each
/// file in Regressions/ once crashed or failed a check, and must now pass (*.yml as a
/// cardfeed.yml, *.mustache as the card template, the others as card files).
@Suite struct FuzzRegressionTests {
    static let inputs: [URL] = {
        let folder = Bundle.module.resourceURL!.appendingPathComponent("Regressions")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }
    }()

    @Test("fuzzer findings stay fixed", arguments: inputs)
    func replay(_ input: URL) throws {
        let problems = FuzzTarget(path: input.path).problems(try Data(contentsOf: input))
        #expect(problems.isEmpty, "\(input.lastPathComponent): \(problems.joined(separator: "\n"))")
    }
}

/// The probe the fuzz target drives is a whole build: the same steps as `cardfeed build`.
@Suite struct SiteProbeTests {
    @Test func theProbeRunsEveryStepOfABuild() throws {
        let cards = ##"[{"id": "e1", "type": "text_announcement", "created": 1700000000, "title": "T", "description": "d", "extras": {"background_color": "#abcdef"}}]"##
        let output = SiteProbe.run(Data(cards.utf8), as: .cards)
        #expect(output.notRun == nil)
        #expect(output.diagnostics.allSatisfy { $0.severity != .error }, "\(output.diagnostics.map(\.description))")
        let page = try #require(output.files["index.html"].map { String(decoding: $0, as: UTF8.self) })
        #expect(page.contains("Renamed"), "the configuration's rules ran")
        for path in OutputFormat.all.map({ $0.path(for: nil) }) + ["robots.txt", "assets/theme.css", "assets/card-styles.css", "assets/images/a.png"] {
            #expect(output.files[path] != nil, "\(path) is made")
        }
    }

    @Test func aBrokenCardFileGivesTheBuildsErrors() {
        let output = SiteProbe.run(Data("[{\"id\": 1,".utf8), as: .cards)
        #expect(output.files.keys.sorted() == [])
        #expect(output.diagnostics.contains { $0.severity == .error && $0.description.contains("cards.json:1:11: invalid JSON") }, "\(output.diagnostics.map(\.description))")
    }
}
