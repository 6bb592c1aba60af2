import Foundation
import CardFeedModel

/// A time as a person or an export writes it: Unix seconds, or an ISO 8601 date or date-time
/// (`2026-11-20`, `2026-11-20T14:05:00Z`, `2026-11-20T14:05:00.250+02:00`). A time written
/// without an offset, a date alone included (midnight), is a time on the site's clocks: it
/// becomes a moment only with the site's time zone (see `moment(in:)`).
///
/// Read by hand rather than with Foundation's `ISO8601FormatStyle`, which needs one style for
/// each of the forms accepted here (a date alone, with or without seconds, fraction or offset)
/// tried in turn, and cannot read a time without an offset in a zone known only later.
public struct WrittenTime: Sendable, Hashable, ExpressibleByIntegerLiteral {
    /// Seconds since 1970-01-01T00:00 of the clock the time was written on.
    let clock: Int64
    /// Seconds east of UTC of that clock; nil when the text gave none (the site's time zone).
    let utcOffset: Int64?

    public init(unixSeconds: Int64) {
        clock = unixSeconds
        utcOffset = 0
    }

    public init(integerLiteral seconds: Int64) { self.init(unixSeconds: seconds) }

    /// The current time.
    public static var current: WrittenTime { WrittenTime(unixSeconds: Int64(Date.now.timeIntervalSince1970)) }

    /// How the accepted forms are described in messages.
    public static let acceptedForms = "Unix seconds, or an ISO 8601 date or date-time such as 2026-11-20, 2026-11-20T14:05:00Z or 2026-11-20T14:05:00+02:00"

    /// Unix seconds of this time; a time without an offset is read on the clocks of `zone`.
    public func moment(in zone: SiteTimeZone) -> Int64 {
        utcOffset.map { clock - $0 } ?? zone.moment(atClock: clock)
    }

    /// `YYYY-MM-DD`, optionally followed by `T` (or `t` or a space) and `hh:mm`, `hh:mm:ss` or
    /// `hh:mm:ss.fraction` (rounded down to the second), then optionally `Z` or an offset
    /// `+hh:mm`, `+hhmm` or `+hh` (or `-`). Leading and trailing white space is ignored. Nil for
    /// anything else, a day the month does not have included.
    public init?(iso8601 text: String) {
        var scanner = Scanner(text)
        guard let year = scanner.digits(4), scanner.take(UInt8(ascii: "-")),
            let month = scanner.digits(2), scanner.take(UInt8(ascii: "-")),
            let day = scanner.digits(2),
            (1...12).contains(month), (1...Self.days(inMonth: month, of: year)).contains(day)
        else { return nil }
        var seconds: Int64 = 0
        var offset: Int64?
        if scanner.take(UInt8(ascii: "T")) || scanner.take(UInt8(ascii: "t")) || scanner.take(UInt8(ascii: " ")) {
            guard let hour = scanner.digits(2), scanner.take(UInt8(ascii: ":")), let minute = scanner.digits(2),
                hour < 24, minute < 60
            else { return nil }
            seconds = hour * 3600 + minute * 60
            if scanner.take(UInt8(ascii: ":")) {
                guard let second = scanner.digits(2), second < 60 else { return nil }
                seconds += second
                if scanner.take(UInt8(ascii: ".")) || scanner.take(UInt8(ascii: ",")) {
                    guard scanner.skipDigits() > 0 else { return nil }
                }
            }
            if scanner.take(UInt8(ascii: "Z")) || scanner.take(UInt8(ascii: "z")) {
                offset = 0
            } else if let sign = scanner.sign() {
                guard let hours = scanner.digits(2), hours < 24 else { return nil }
                var minutes: Int64 = 0
                if scanner.take(UInt8(ascii: ":")) {
                    guard let written = scanner.digits(2) else { return nil }
                    minutes = written
                } else if let written = scanner.digits(2) {
                    minutes = written
                }
                guard minutes < 60 else { return nil }
                offset = sign * (hours * 3600 + minutes * 60)
            }
        }
        guard scanner.atEnd else { return nil }
        clock = Formatting.daysSince1970(year: year, month: month, day: day) * 86_400 + seconds
        utcOffset = offset
    }

    static func days(inMonth month: Int64, of year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Reads the bytes of a time from the front.
    private struct Scanner {
        var bytes: Substring.UTF8View

        /// The text without the spaces around it.
        init(_ text: String) {
            var bytes = Substring(text).utf8
            while bytes.first == 0x20 { bytes.removeFirst() }
            while bytes.last == 0x20 { bytes.removeLast() }
            self.bytes = bytes
        }

        var atEnd: Bool { bytes.isEmpty }

        mutating func take(_ byte: UInt8) -> Bool {
            guard bytes.first == byte else { return false }
            bytes.removeFirst()
            return true
        }

        /// Exactly `count` decimal digits, as a number.
        mutating func digits(_ count: Int) -> Int64? {
            var value: Int64 = 0
            for _ in 0..<count {
                guard let byte = bytes.first, (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - 0x30)
                bytes.removeFirst()
            }
            return value
        }

        /// Skips digits; how many there were.
        mutating func skipDigits() -> Int {
            var count = 0
            while let byte = bytes.first, (0x30...0x39).contains(byte) {
                bytes.removeFirst()
                count += 1
            }
            return count
        }

        /// +1 for `+`, -1 for `-`, nil for neither.
        mutating func sign() -> Int64? {
            if take(UInt8(ascii: "+")) { return 1 }
            if take(UInt8(ascii: "-")) { return -1 }
            return nil
        }
    }
}
