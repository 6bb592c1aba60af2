import Foundation
import Logging
import CardFeedBuild
import CardFeedModel
import CardFeedRender

/// The one printer: every line any command prints, on either stream, in every mode (text,
/// `--diagnostics json`, GitHub workflow commands, step and progress lines, serve's lines) goes
/// through `line`, `workflowCommand` or `redraw`. Progress goes on standard output, warnings and
/// errors on standard error, each as one line ("warning: site/cards.json: card 3 (id \"x\"):
/// field \"image\": ...").
///
/// Lines carry file names, card ids and messages from the site, which nothing printed may let
/// act: control characters (ESC, BEL, CR, LF inside a value, C1, U+2028/9, bidirectional
/// overrides) are shown as `\u{1b}` (`Diagnostic.escapingControls`), so no value moves the
/// cursor or starts a line of its own; and no line but cardfeed's own annotations can be read
/// by GitHub Actions as a workflow command (`::stop-commands::`, `::error …::`, or the older
/// `##[…]`).
enum Console {
    private static let once: Void = {
        LoggingSystem.bootstrap { label in PlainHandler(label: label) }
    }()

    static func bootstrap() { _ = once }

    enum Stream { case output, error }

    /// Prints `text` as one line on `stream`. Standard error is written after what standard
    /// output holds: piped (in CI, an editor's terminal) standard output is written in blocks,
    /// and without the flush the step lines would come after the warnings and errors printed
    /// between them.
    static func line(_ text: String, to stream: Stream = .output) {
        let shown = safe(text) + "\n"
        switch stream {
        case .output:
            Swift.print(shown, terminator: "")
        case .error:
            fflush(nil)
            FileHandle.standardError.write(Data(shown.utf8))
        }
    }

    /// An error (or with `prefix`, another kind of line) on standard error.
    static func printError(_ text: String, prefix: String = "error: ") {
        line(prefix + text, to: .error)
    }

    /// One of cardfeed's own GitHub workflow commands (`::warning file=…::…`), on standard
    /// output, at once; `command` holds values escaped as `DiagnosticPrinter.workflowCommand`
    /// escapes them, in one line.
    static func workflowCommand(_ command: String) {
        precondition(!command.contains("\n") && !command.contains("\r"), "a workflow command is one line")
        Swift.print(command)
        fflush(nil)
    }

    /// `text` drawn over the current line of a terminal (the progress line), after `prefix`
    /// (the terminal's own sequences: back to the start of the line, clear it).
    static func redraw(_ text: String, after prefix: String) {
        FileHandle.standardOutput.write(Data((prefix + safe(text)).utf8))
    }

    /// `text` as printed: control characters escaped, and a line that GitHub Actions would read
    /// as a workflow command (`::` after any blanks, `##[` anywhere) made one it reads as text.
    static func safe(_ text: String) -> String {
        var shown = Diagnostic.escapingControls(text)
        if shown.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("::"), let colon = shown.firstIndex(of: ":") {
            shown.replaceSubrange(colon...colon, with: "\\u{3a}")
        }
        return neutralisingOldCommands(shown)
    }

    /// `##[` (GitHub's older command form, read anywhere in a line) written `##\u{5b}`.
    static func neutralisingOldCommands(_ text: String) -> String {
        text.contains("##[") ? text.replacingOccurrences(of: "##[", with: "##\\u{5b}") : text
    }

    /// The last line of a failed build, or of a check that found errors.
    static func printFailure(_ report: BuildReport, wrote: Bool, strict: Bool) {
        let errors = report.diagnostics.errors.count
        let warnings = report.diagnostics.warnings.count
        var line = wrote ? "error: build failed with \(plural(errors, "error"))" : "error: check found \(plural(errors, "error"))"
        if warnings > 0 { line += " and \(plural(warnings, "warning"))" }
        if strict { line += " (--strict counts warnings as errors)" }
        line += wrote ? "; nothing was written." : "."
        printError(line, prefix: "")
    }

    static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    struct PlainHandler: LogHandler {
        let label: String
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            switch event.level {
            case .warning:
                Console.printError("\(event.message)", prefix: "warning: ")
            case .error, .critical:
                Console.printError("\(event.message)")
            default:
                Console.line("\(event.message)")
            }
        }
    }
}

/// The closing lines of a build or check.
struct Summary {
    let report: BuildReport

    init(_ report: BuildReport) { self.report = report }

    /// The lines, each printed through `Console.line`.
    var lines: [String] {
        var lines: [String] = []
        let notShown = report.skipped.values.reduce(0, +)
        var read = "Read \(Console.plural(report.entriesRead, "card entry").replacingOccurrences(of: "entrys", with: "entries")) from \(Console.plural(report.filesRead.count, "file")): \(report.cardsShown) shown"
        if notShown > 0 {
            let reasons = report.skipped.sorted { $0.key < $1.key }.map { reason, count in
                let ids = report.skippedIDs.ids[reason] ?? []
                let named = ids.isEmpty ? "" : ": " + ids.map(Diagnostic.quoted).joined(separator: ", ") + (count > ids.count ? ", …" : "")
                return "\(count) \(reason.rawValue)\(named)"
            }
            read += ", \(notShown) not shown (\(reasons.joined(separator: "; ")))"
        }
        lines.append(read + ".")
        // With languages, each tree's feeds after its folder: "all 3, news 3; de/: all 1, news 1".
        let trees = Dictionary(grouping: report.feeds, by: \.feed.tree)
        let order = report.feeds.map(\.feed.tree).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let feeds = order.map { tree in
            (tree.isEmpty ? "" : tree + "/: ") + trees[tree, default: []].map { "\($0.feed.slug) \($0.cards)" }.joined(separator: ", ")
        }.joined(separator: "; ")
        lines.append("Feeds: \(feeds); \(Console.plural(report.pagesRendered, "page")).")
        if let base = report.syndicatedFor {
            lines.append("\(OutputFormat.summary), for \(base).")
        } else {
            lines.append("\(OutputFormat.withoutBaseURL): they need the site's address (base_url in cardfeed.yml, or --base-url).")
        }
        let warnings = report.diagnostics.warnings.count
        let seconds = report.seconds ?? report.stepSeconds.reduce(0) { $0 + $1.seconds }
        let timing = String(format: "%.2f s", seconds)
        if let output = report.output {
            // What changed is what a deployment that copies changed files (rsync, an upload
            // step) copies: unchanged files keep their modification times.
            let changes = report.comparedWithPrevious ? " (\(report.filesWritten) changed, \(report.filesUnchanged) unchanged)" : ""
            let total = report.filesWritten + report.filesUnchanged
            lines.append("Wrote \(Console.plural(total, "file")) in \(timing)\(changes)\(warnings > 0 ? " with \(Console.plural(warnings, "warning"))" : "").")
            lines += cacheLines
            let removed = report.filesRemoved
            if !removed.isEmpty {
                let shown = removed.prefix(5).joined(separator: ", ") + (removed.count > 5 ? ", …" : "")
                lines.append("Removed \(Console.plural(removed.count, "file")) of the previous build that the site no longer has: \(shown).")
                // A build makes pages, feeds, the sitemap and assets; anything else was most likely
                // put into the output by hand (a CNAME for GitHub Pages), which every build replaces.
                let madeByBuilds = { (path: String) in
                    path.hasPrefix("assets/") || path.hasSuffix(".html") || OutputFormat.named(URL(fileURLWithPath: path).lastPathComponent) != nil
                }
                if let handmade = removed.first(where: { !madeByBuilds($0) }) {
                    lines.append("If you put \(handmade) into the output by hand: every build replaces the output, so put it in the site's static/ folder instead (static/\(handmade)), which every build copies to the output.")
                }
            }
            if let next = Self.nextStep(output: output, searchable: report.searchable) { lines.append(next) }
        } else {
            lines.append("Checked in \(timing): \(warnings > 0 ? Console.plural(warnings, "warning") : "no problems"); nothing written.")
            lines += cacheLines
        }
        return lines
    }

    /// What the build cache gave: "Reused 99998 of 100000 cards; 6 files written." (a check
    /// writes none, and says only what it reused), and why it was not used or kept, as a
    /// note, which is no warning: `--strict` and the exit status never hear of it.
    var cacheLines: [String] {
        var lines: [String] = []
        if let reused = report.cardsReused {
            let written = report.output == nil ? "" : "; \(Console.plural(report.filesWritten, "file")) written"
            lines.append("Reused \(reused) of \(Console.plural(report.cardsShown, "card"))\(written).")
        }
        if let note = report.cacheNote { lines.append("note: \(note)") }
        return lines
    }

    /// What to do with the output, the summary's last line: open it in a browser; with search,
    /// whose box works only over http(s), serve it instead. None in CI (`CI` set to anything but
    /// empty, `false` or `0`: GitHub Actions and GitLab set `true`, others `1` or their name),
    /// where no one opens anything.
    static func nextStep(output: URL, searchable: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let ci = environment["CI"]?.lowercased(), !["", "false", "0"].contains(ci) { return nil }
        guard searchable else { return "Open \(output.appendingPathComponent("index.html").path) in a browser." }
        let folder = shellWord(output.path)
        return "Search works over http(s), not from files: preview with `cardfeed serve`, or serve \(folder) with any web server (python3 -m http.server -d \(folder))."
    }

    /// `text` as one word a shell reads back as it is: as it is when every character is plain,
    /// else in single quotes (a path with spaces, quotes or `$`).
    static func shellWord(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "/._-+,:@%=".unicodeScalars.contains($0)) }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// `--stats`: the time of each step and the peak memory of the process.
    var stats: [String] {
        var lines = report.stepSeconds.map { String(format: "%8.3f s  %@", $0.seconds, $0.step) }
        let steps = report.stepSeconds.reduce(0) { $0 + $1.seconds }
        let total = max(report.seconds ?? steps, steps)
        lines.append(String(format: "%8.3f s  %@", total - steps, "between the steps (settings and templates, rules and checks, the cache)"))
        lines.append(String(format: "%8.3f s  total", total))
        var usage = rusage()
        #if os(Linux)
        let this = RUSAGE_SELF.rawValue
        #else
        let this = RUSAGE_SELF
        #endif
        if getrusage(this, &usage) == 0 {
            // Linux counts ru_maxrss in KiB.
            lines.append(String(format: "%8.1f MiB peak memory (resident)", Double(usage.ru_maxrss) / 1024))
        }
        lines.append("           memory allocator: \(MemoryAllocator.name)")
        return lines
    }
}
