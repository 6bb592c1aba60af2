import Dispatch
import Foundation
import Synchronization
import CardFeedBuild

/// The line a long build shows on a terminal while it loads and renders its cards and writes its
/// files, redrawn in place: `[1/4] Load cards: 412000 entries (41%)`. It appears only once a
/// step has run for a moment (`CARDFEED_PROGRESS_DELAY` seconds, default 0.5), so a small site's
/// build prints exactly what it prints without a terminal, and it is erased before the line the
/// step ends with. It is cut to the terminal's width: a line that wrapped could not be erased.
final class TerminalProgress: BuildProgressObserver, Sendable {
    /// Seconds a step runs before its progress is shown, and between two redraws.
    let delay: Double
    let interval: Double
    /// Erases the line being shown and draws the one given in its place.
    private let write: @Sendable (String) -> Void
    /// When the line was last drawn, and whether one is shown.
    private let drawn = Mutex<(at: Double?, showing: Bool)>((nil, false))

    /// The terminal's width in characters, asked at each redraw (the window may change).
    private let columns: @Sendable () -> Int?

    init(delay: Double, interval: Double = 0.1, columns: @escaping @Sendable () -> Int?, write: @escaping @Sendable (String) -> Void) {
        self.delay = delay
        self.interval = interval
        self.columns = columns
        self.write = write
    }

    /// Progress on standard output when it is a terminal that can redraw a line, else nil.
    static func onStandardOutput() -> TerminalProgress? {
        let environment = ProcessInfo.processInfo.environment
        guard isatty(STDOUT_FILENO) == 1, environment["TERM"] != "dumb" else { return nil }
        let delay = environment["CARDFEED_PROGRESS_DELAY"].flatMap(Double.init).map { max($0, 0) } ?? 0.5
        return TerminalProgress(delay: delay, columns: terminalColumns) { text in Console.redraw(text, after: eraseLine) }
    }

    @Sendable private static func terminalColumns() -> Int? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    func progress(_ progress: StepProgress) {
        drawn.withLock { drawn in
            guard progress.seconds >= delay else { return }
            if let lastDrawn = drawn.at, progress.seconds - lastDrawn < interval { return }
            drawn = (progress.seconds, true)
            var line = Console.safe(Self.line(progress))  // escaped first: the escapes count in the width
            if let columns = columns(), line.count >= columns { line = String(line.prefix(max(columns - 1, 0))) }
            write(line)
        }
    }

    func stepEnded() {
        drawn.withLock { drawn in
            if drawn.showing { write("") }
            drawn = (nil, false)
        }
    }

    /// Back to the start of the line, and clear it (ANSI "erase in line").
    static let eraseLine = "\r\u{1B}[2K"

    static func line(_ progress: StepProgress) -> String {
        let count = progress.total.map { "\(progress.done) of \($0) \(progress.unit)" } ?? "\(progress.done) \(progress.unit)"
        let percent = Int((min(max(progress.fraction, 0), 1) * 100).rounded(.down))
        return "[\(progress.step)/\(progress.steps)] \(progress.title): \(count) (\(percent)%)"
    }
}
