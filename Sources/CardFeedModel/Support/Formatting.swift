import Foundation

/// Locale-independent formatting, so that output is the same on every machine.
package enum Formatting {
    /// Whole days since 1970-01-01 (rounded down, also before 1970).
    package static func days(_ seconds: Int64) -> Int64 { seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400 }

    /// The RFC 3339 time of a moment, in UTC: `datetime` attributes and feeds (the text for
    /// people is the string table's, `StringTable.moment`).
    package static func iso(_ seconds: Int64) -> String {
        let days = days(seconds)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        guard (0...9999).contains(year) else {
            func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : String(n) }
            let paddedYear = year >= 1000 ? String(year) : String(repeating: "0", count: 4 - String(year).count) + String(year)
            return "\(paddedYear)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
        }
        // Written digit by digit into 20 bytes: string interpolation cost 3,000 instructions a card.
        var bytes: [UInt8] = Array("0000-00-00T00:00:00Z".utf8)
        func put(_ value: Int64, at end: Int, digits: Int) {
            var value = value
            for index in stride(from: end, to: end - digits, by: -1) {
                bytes[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        put(year, at: 3, digits: 4)
        put(month, at: 6, digits: 2)
        put(day, at: 9, digits: 2)
        put(secondOfDay / 3600, at: 12, digits: 2)
        put(secondOfDay / 60 % 60, at: 15, digits: 2)
        put(secondOfDay % 60, at: 18, digits: 2)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The RFC 822 date-time of a moment, in UTC, as RSS 2.0 writes dates: "Tue, 14 Nov 2023
    /// 22:13:20 +0000", with a four-digit year (RFC 1123) and English names, whatever the locale.
    package static func rfc822(_ seconds: Int64) -> String {
        let days = days(seconds)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : String(n) }
        // 1970-01-01 was a Thursday.
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][Int(((days % 7) + 7) % 7)]
        let monthName = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][Int(month) - 1]
        return "\(weekday), \(two(day)) \(monthName) \(year) \(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) +0000"
    }

    /// Gregorian year, month and day of a day count since 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`): exact, and much cheaper than a `Calendar` per card.
    package static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days since 1970-01-01 of a Gregorian date: the inverse of `civilDate` (Hinnant's
    /// `days_from_civil`).
    package static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// 10000 -> "10,000".
    package static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var out = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return number < 0 ? "-" + out : out
    }

    /// `value` with `places` decimals, rounded as C's printf rounds: through `vsnprintf`
    /// directly, as Foundation's `String(format:)` does after 4,000 instructions of set-up.
    package static func decimal(_ value: Double, places: Int) -> String {
        var buffer = [CChar](repeating: 0, count: 400)
        let count = withVaList([value]) { arguments in
            vsnprintf(&buffer, buffer.count, "%.\(min(max(places, 0), 20))f", arguments)
        }
        guard count >= 0, Int(count) < buffer.count else { return String(format: "%.\(places)f", value) }
        return String(decoding: buffer[..<Int(count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A string usable as an HTML id and URL fragment: "card-" + the id's safe characters, plus
    /// a short hash of the id when anything had to be replaced, so that anchors stay unique.
    /// Whether `anchor(for:)` writes the id as it is ("card-" + id), without a hash.
    package static func isPlainAnchorID(_ id: String) -> Bool {
        let utf8 = id.utf8
        return !utf8.isEmpty && utf8.count <= 64 && (utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isAnchorSafe) } ?? utf8.allSatisfy(isAnchorSafe))
    }

    private static func isAnchorSafe(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    /// Whether the text ends in "-" and at least one lower-case hex digit (a hashed anchor does).
    package static func endsInDashAndHex(_ text: String) -> Bool {
        var digits = 0
        for byte in text.utf8.reversed() {
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) {
                digits += 1
            } else {
                return byte == UInt8(ascii: "-") && digits > 0
            }
        }
        return false
    }

    /// A card's anchor before it is made unique among the cards shown: use
    /// `ShownCards.anchor(at:)` for what a page or feed writes.
    package static func anchor(for id: String) -> String {
        func isSafe(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        let utf8 = id.utf8
        // The usual case; the bytes are read in place, which is several times faster than through `utf8`'s indices.
        if !utf8.isEmpty, utf8.count <= 64, utf8.withContiguousStorageIfAvailable({ $0.allSatisfy(isSafe) }) ?? utf8.allSatisfy(isSafe) {
            return "card-" + id
        }
        var safe = ""
        for scalar in id.unicodeScalars.prefix(64) {
            safe.append(scalar.isASCII && isSafe(UInt8(scalar.value)) ? Character(scalar) : "-")
        }
        return "card-" + safe + "-" + String(fnv1a(id), radix: 16)
    }

    /// 32-bit FNV-1a: small, stable across runs and platforms (unlike `Hasher`).
    static func fnv1a(_ text: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return hash
    }

    /// Percent-encodes what may not stand in an HTML URL attribute (spaces, quotes, angle
    /// brackets, control characters); everything else, including existing escapes, is kept.
    package static func attributeURL(_ url: String) -> String {
        func mustBeEscaped(_ byte: UInt8) -> Bool {
            byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
                || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "^") || byte == UInt8(ascii: "`") || byte == UInt8(ascii: "{")
                || byte == UInt8(ascii: "|") || byte == UInt8(ascii: "}")
        }
        guard url.utf8.withContiguousStorageIfAvailable({ $0.contains(where: mustBeEscaped) }) ?? url.utf8.contains(where: mustBeEscaped) else {
            return url  // the usual case
        }
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in url.utf8 {
            if mustBeEscaped(byte) {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
