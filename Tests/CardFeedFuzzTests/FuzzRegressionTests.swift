import Foundation
import Testing

@testable import CardFeedFuzz

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
