import ArgumentParser
import CardFeedLoad

/// `--now`: Unix seconds, or an ISO 8601 date or date-time (`2026-11-20`,
/// `2026-11-20T10:00:00Z`); a time without an offset is on the site's clocks (`timezone`).
struct NowArgument: ExpressibleByArgument {
    let time: WrittenTime

    init?(argument: String) {
        if let seconds = Int64(argument) {
            guard seconds >= 0 else { return nil }
            time = WrittenTime(unixSeconds: seconds)
        } else if let written = WrittenTime(iso8601: argument) {
            time = written
        } else {
            return nil
        }
    }
}
