import Foundation
import CardFeedSystem

// The fuzz target over loading and rendering one card file (see `SiteProbe` and
// scripts/fuzz.sh), or, with CARDFEED_FUZZ_TARGET=config or templates, over a site's
// cardfeed.yml or card template (the same probe). Built with CARDFEED_LIBFUZZER=1 (libFuzzer and
// AddressSanitizer), `main` hands over to libFuzzer (`LibFuzzer`, in the system layer), which
// calls `checkOneInput` with each input; a failed check aborts, which libFuzzer reports as a crash
// and saves. Built normally, the same checks run over the files named on the command line, to
// replay what the fuzzer found.

/// One input: the checks' problems are printed and abort the process, so that libFuzzer saves it.
@Sendable func checkOneInput(_ data: Data) {
    let problems = FuzzTarget.fromEnvironment.problems(data)
    if !problems.isEmpty {
        FileHandle.standardError.write(Data(("cardfeed-fuzz: " + problems.prefix(5).joined(separator: "\n") + "\n").utf8))
        abort()
    }
}

@main
struct CardFeedFuzz {
    static func main() {
        if LibFuzzer.linked { LibFuzzer.run(checkOneInput) }
        replay(Array(CommandLine.arguments.dropFirst()))
    }

    /// Runs the checks over each file and says which pass.
    static func replay(_ paths: [String]) {
        guard !paths.isEmpty else {
            FileHandle.standardError.write(Data("usage: CardFeedFuzz FILE...  (runs the fuzz target's checks over each file: *.yml as cardfeed.yml, *.mustache as the card template, others as card files)\n".utf8))
            exit(2)
        }
        var failed = 0
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): cannot read")
                failed += 1
                continue
            }
            let problems = FuzzTarget(path: path).problems(data)
            print("\(path): \(problems.isEmpty ? "ok" : problems.joined(separator: "\n  "))")
            if !problems.isEmpty { failed += 1 }
        }
        exit(failed == 0 ? 0 : 1)
    }
}

/// What an input is: a card file, a `cardfeed.yml` or a card template.
enum FuzzTarget {
    case cards, config, template

    /// CARDFEED_FUZZ_TARGET (cards, config, templates), read once: scripts/fuzz.sh sets it.
    static let fromEnvironment: FuzzTarget = switch ProcessInfo.processInfo.environment["CARDFEED_FUZZ_TARGET"] {
    case "config": .config
    case "templates": .template
    default: .cards
    }

    /// By the file's name, for replaying what the fuzzer found.
    init(path: String) {
        if path.hasSuffix(".yml") || path.hasSuffix(".yaml") { self = .config } else if path.hasSuffix(".mustache") { self = .template } else { self = .cards }
    }

    func problems(_ data: Data) -> [String] {
        switch self {
        case .cards: FuzzChecks.problems(data, as: .cards)
        case .config: FuzzChecks.problems(data, as: .config)
        case .template: FuzzChecks.problems(data, as: .cardTemplate)
        }
    }
}
