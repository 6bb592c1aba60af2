import Foundation
import CardFeedModel

/// The site's time zone (`timezone` in cardfeed.yml): the dates pages show to people, and the
/// time of day a card's date without a time means. Kept as its IANA name, a value whose
/// `Hashable` and `Decodable` the compiler writes, so that it counts in serve's keys (see
/// `CardDecoder`, `RenderSettings.Values`); Foundation's `TimeZone` is looked up only for a
/// zone that is not UTC, and only where a time needs it.
public struct SiteTimeZone: Sendable, Hashable, Decodable {
    /// An identifier Foundation's `TimeZone` knows ("UTC", "America/New_York").
    public let identifier: String

    public static let utc = SiteTimeZone(checked: "UTC")

    /// The zone of this name, or nil when Foundation does not know it.
    public init?(identifier: String) {
        guard TimeZone(identifier: identifier) != nil else { return nil }
        self.identifier = identifier
    }

    private init(checked identifier: String) { self.identifier = identifier }

    /// Named zones, for a suggestion when a name is not one of them.
    public static var knownIdentifiers: [String] { TimeZone.knownTimeZoneIdentifiers }

    private var isUTC: Bool { identifier == "UTC" }

    /// Foundation's zone; UTC when the name is not known (a value made with the synthesised
    /// `Decodable`, in the tests).
    private var zone: TimeZone { TimeZone(identifier: identifier) ?? TimeZone(secondsFromGMT: 0)! }

    /// Seconds east of UTC at the moment `seconds` (Unix seconds), daylight saving time included.
    public func offset(at seconds: Int64) -> Int64 {
        isUTC ? 0 : Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
    }

    /// A moment as RFC 3339 on this zone's clocks, with the zone named for people:
    /// "2026-09-01T12:00:00+02:00 (Europe/Berlin)", or "2026-09-01T10:00:00Z" in UTC.
    public func iso(_ seconds: Int64) -> String {
        guard !isUTC else { return Formatting.iso(seconds) }
        let offset = offset(at: seconds)
        let minutes = abs(offset) / 60
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : String(n) }
        return Formatting.iso(seconds + offset).dropLast() + (offset < 0 ? "-" : "+") + two(minutes / 60) + ":" + two(minutes % 60) + " (\(identifier))"
    }

    /// The moment at which clocks in this zone show `clock` (seconds since 1970-01-01T00:00 of
    /// the wall clock). A wall-clock time shown twice (clocks going back) is its first moment; one
    /// never shown (clocks going forward) is read with the offset before the change, as Foundation's
    /// `Calendar` reads it: 02:30 on the night New York goes from 02:00 to 03:00 is 03:30.
    public func moment(atClock clock: Int64) -> Int64 {
        guard !isUTC else { return clock }
        let offset = offset(at:)
        // The true moment is within 14 hours of `clock` read as UTC, so the offsets a day either
        // side are those before and after any change of offset near it.
        let before = offset(clock - 86_400), after = offset(clock + 86_400)
        let moments = [clock - before, clock - after].filter { $0 + offset($0) == clock }
        return moments.min() ?? clock - before
    }
}
