import Foundation
import CardFeedModel
import CardFeedSystem

/// Every text of the built-in templates in one language: feed names, the empty state, labels,
/// pagination, rating text, and how dates and numbers are written. English, German, French,
/// Arabic and Hebrew are built in (`strings/<locale>.json`); `SITE/strings/<locale>.json` adds or overrides strings.
/// A setting (see `RenderSettings.Values`): `Hashable` as the compiler writes it.
public struct StringTable: Sendable, Hashable, Decodable {
    public static let defaultLocale = "en"

    public let locale: String
    package let values: [String: String]

    /// The locales built into the binary.
    public static var builtinLocales: [String] {
        BuiltinFiles.stringLocales
    }

    /// English, the reference: every key a table must have.
    static let english: [String: String] = builtin(defaultLocale) ?? [:]

    static func builtin(_ locale: String) -> [String: String]? {
        guard let data = BuiltinFiles.strings(locale),
            case .object(let pairs)? = try? JSONParser.parse(data)
        else { return nil }
        var strings: [String: String] = [:]
        for (key, value) in pairs { if case .string(let text) = value { strings[key] = text } }
        return strings
    }

    /// Month names and the date patterns, split once: dates are written for every card.
    private let monthNames: [String]
    private let datePattern: [DatePart]
    /// `dateFormatWithoutYear`: the first day of a range within one year.
    private let dayPattern: [DatePart]

    private enum DatePart: Sendable, Hashable, Decodable {
        case literal(String), day, month, year
    }

    init(locale: String, values: [String: String]) {
        self.locale = locale
        self.values = values
        let months = (values["months"] ?? "").split(separator: "|").map(String.init)
        monthNames = months.count == 12 ? months : (1...12).map(String.init)
        datePattern = Self.datePattern(values["dateFormat"] ?? "{month} {day}, {year}")
        dayPattern = Self.datePattern(values["dateFormatWithoutYear"] ?? "{month} {day}")
    }

    private static func datePattern(_ format: String) -> [DatePart] {
        var parts: [DatePart] = []
        var rest = Substring(format)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { parts.append(.literal(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            switch rest[rest.index(after: open)..<close] {
            case "day": parts.append(.day)
            case "month": parts.append(.month)
            case "year": parts.append(.year)
            default: parts.append(.literal(String(rest[open...close])))
            }
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        return parts
    }

    /// The table for `locale`: the built-in one (English for a locale that is not built in),
    /// overridden by the site's file. Problems are added to `diagnostics`; nil when unusable.
    /// Locale names are case-insensitive (`--locale DE`, `locale: pt-br`), for the built-in
    /// tables and the site's files alike. The titles of the site's `feeds` (cardfeed.yml's)
    /// override the built-in table's, and the site's file may set them (`feedOffers`).
    public static func load(locale given: String, site: SiteFolder, feeds: [Feed] = Feed.builtin, diagnostics: inout Diagnostics) -> StringTable? {
        let locale = canonical(given)
        var file = site.stringsFolder.appendingPathComponent("\(locale).json")
        // A strings/ that links out of the site is an error of its own (`foldersLinkedOut`).
        let readable = !site.isLinkedOut(site.stringsFolder)
        if readable, !FileManager.default.fileExists(atPath: file.path),
            let names = try? FileManager.default.contentsOfDirectory(atPath: site.stringsFolder.path),
            let match = names.sorted().first(where: { $0.lowercased() == "\(locale).json".lowercased() }) {
            file = site.stringsFolder.appendingPathComponent(match)
        }
        let name = site.display(file)
        // cardfeed.yml's `locale` and `--locale` are checked where they are given; a tag that got
        // here unchecked must not name a path.
        guard isLanguageTag(locale) else {
            diagnostics.append(Diagnostic(.error, file: "locale", message: notALanguageTag(given)))
            return nil
        }
        let builtin = builtin(locale) ?? builtin(locale.split(separator: "-").first.map(String.init) ?? locale)
        var values = builtin ?? english
        for feed in feeds { if let title = feed.title { values[feed.titleKey] = title } }
        let exists = readable && FileManager.default.fileExists(atPath: file.path)
        guard exists || builtin != nil else {
            diagnostics.append(Diagnostic(
                .error, file: name, field: "locale",
                message: "no strings for the locale \(Diagnostic.quoted(locale)): the built-in ones are \(builtinLocales.joined(separator: ", ")); add this file for another"))
            return nil
        }
        if exists {
            let feedKeys = Set(feeds.map(\.titleKey))
            guard let overrides = readSiteStrings(file, name: name, feedKeys: feedKeys, diagnostics: &diagnostics) else { return nil }
            values.merge(overrides) { $1 }
            if builtin == nil {
                // A feed title cardfeed.yml gives is no missing translation: the site wrote it.
                let titled = Set(feeds.filter { $0.title != nil }.map(\.titleKey))
                let missing = english.keys.filter { overrides[$0] == nil && !titled.contains($0) }.sorted()
                if !missing.isEmpty {
                    diagnostics.append(Diagnostic(.warning, file: name, message: "no translation for \(missing.joined(separator: ", ")); English is used for those"))
                }
            }
        }
        return StringTable(locale: locale, values: values)
    }

    private static func readSiteStrings(_ file: URL, name: String, feedKeys: Set<String>, diagnostics: inout Diagnostics) -> [String: String]? {
        let data: Data
        do { data = try InputFile.read(file) } catch {
            diagnostics.append(Diagnostic(.error, file: name, message: error.description))
            return nil
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse(data)
        } catch {
            diagnostics.append(Diagnostic(.error, file: name, line: error.line, column: error.column, message: error.message))
            return nil
        }
        // A message points at the key it is about, or at the value read.
        func place(_ key: String?) -> (line: Int?, column: Int?) {
            data.withByteView { bytes in
                var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
                while start < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[start]) { start += 1 }
                guard let offset = key.map({ JSONParser.keys(ofObjectAt: start, in: bytes)?[$0]?.key }) ?? start else { return (nil, nil) }
                let position = JSONParser.positions(of: [offset], in: bytes)[offset]
                return (position?.line, position?.column)
            }
        }
        guard case .object(let pairs) = json else {
            let (line, column) = place(nil)
            diagnostics.append(Diagnostic(.error, file: name, line: line, column: column, message: "expected an object of \"key\": \"text\" pairs, found \(json.noun)"))
            return nil
        }
        var strings: [String: String] = [:]
        for (key, value) in pairs {
            guard isKnownKey(key) || feedKeys.contains(key) else {
                let (line, column) = place(key)
                diagnostics.append(Diagnostic(
                    .warning, file: name, line: line, column: column, field: key,
                    message: "unknown string\(Diagnostic.suggestion(for: key, among: Set(english.keys).union(feedKeys))); ignored"))
                continue
            }
            guard case .string(let text) = value else {
                let (line, column) = place(key)
                diagnostics.append(Diagnostic(.warning, file: name, line: line, column: column, field: key, message: "expected text, found \(value.noun); ignored"))
                continue
            }
            strings[key] = text
        }
        return strings
    }

    public subscript(key: String) -> String { values[key] ?? Self.english[key] ?? key }

    /// The string `key` with `{name}` placeholders filled in, in one pass (a value is never
    /// read for placeholders); an unknown placeholder stays as it is. Done by hand, on the UTF-8
    /// bytes, rather than with Foundation's `replacingOccurrences` or by `Character`: every page
    /// and many cards format a string. Placeholder names are compared byte for byte.
    package func format(_ key: String, _ arguments: KeyValuePairs<String, String>) -> String {
        var template = self[key]
        let open = UInt8(ascii: "{"), close = UInt8(ascii: "}")
        return template.withUTF8 { bytes -> String? in
            guard bytes.contains(open) else { return nil }
            var text: [UInt8] = []
            text.reserveCapacity(bytes.count + 32)
            var rest = bytes[...]
            while let start = rest.firstIndex(of: open) {
                text.append(contentsOf: rest[..<start])
                let name = rest[(start + 1)...]
                if let end = name.firstIndex(of: close),
                    let value = arguments.first(where: { $0.key.utf8.elementsEqual(name[..<end]) })?.value {
                    text.append(contentsOf: value.utf8)
                    rest = rest[(end + 1)...]
                } else {
                    text.append(open)
                    rest = name
                }
            }
            text.append(contentsOf: rest)
            return String(decoding: text, as: UTF8.self)
        } ?? template
    }

    /// The site's strings file's `feedOffers`, else the title cardfeed.yml gives (which `load`
    /// puts in the table), else the built-in table's.
    package func feedTitle(_ feed: Feed) -> String {
        values[feed.titleKey] ?? feed.title ?? Self.english[feed.titleKey] ?? feed.slug
    }

    package func reviews(_ count: Int) -> String {
        format(pluralKey("reviews", count), ["count": number(count)])
    }

    /// The key of the form of a counted string that `count` takes in this language:
    /// `reviewsFew` for 3 in Polish, `reviewsOne` for 0 in French. A form the table lacks falls
    /// back to the `Other` form.
    func pluralKey(_ base: String, _ count: Int) -> String {
        let category = PluralCategory.of(count, locale: locale)
        let key = base + category.keySuffix
        return values[key] != nil || Self.english[key] != nil ? key : base + PluralCategory.other.keySuffix
    }

    /// Strings with a form per plural category (`reviews`: `reviewsOne`, `reviewsOther`): a
    /// site's table may add any of CLDR's forms (`reviewsFew`, `reviewsMany`).
    static let pluralBases: Set<String> = Set(english.keys.compactMap { key in
        for suffix in ["One", "Other"] where key.hasSuffix(suffix) { return String(key.dropLast(suffix.count)) }
        return nil
    })

    /// True for a key a site's table may set: English's keys and the plural forms of its counted strings.
    static func isKnownKey(_ key: String) -> Bool {
        english[key] != nil || pluralBases.contains { base in
            PluralCategory.allCases.contains { key == base + $0.keySuffix }
        }
    }

    /// A language tag as written in the built-in tables and file names, whatever case it was
    /// given in: `DE` -> `de`, `pt-br` -> `pt-BR`, `zh-hant` -> `zh-Hant`.
    /// Whether `text` has the shape of a BCP 47 language tag (`en`, `pt-BR`, `zh-Hant-TW`).
    public static func isLanguageTag(_ text: String) -> Bool {
        text.range(of: #"^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$"#, options: .regularExpression) != nil
    }

    /// Why `given` is not a locale, with the tag that was probably meant: a built-in language
    /// named in English or in itself ("german", "Deutsch" -> de), else the nearest built-in tag.
    public static func notALanguageTag(_ given: String) -> String {
        let named = builtinLocales.first { code in
            [Locale(identifier: "en"), Locale(identifier: code)].contains { names in
                names.localizedString(forLanguageCode: code)?.lowercased() == given.lowercased()
            }
        }
        let hint = named.map { " (did you mean \(Diagnostic.quoted($0))?)" } ?? Diagnostic.suggestion(for: given, among: Set(builtinLocales))
        return "\(Diagnostic.quoted(given)) is not a language tag such as en, de or pt-BR\(hint); the built-in ones are \(builtinLocales.joined(separator: ", "))"
    }

    /// " (did you mean "pt-BR"?)" for a tag written `pt_BR` or a language named in English
    /// (`Arabic`), else nothing.
    static func suggestedLanguageTag(for given: String) -> String {
        let dashed = given.replacingOccurrences(of: "_", with: "-")
        if dashed != given, isLanguageTag(dashed) { return " (did you mean \(Diagnostic.quoted(canonical(dashed)))?)" }
        let english = Locale(identifier: "en")
        let named = Locale.LanguageCode.isoLanguageCodes.lazy.map(\.identifier).first { code in
            code.count == 2 && english.localizedString(forLanguageCode: code)?.lowercased() == given.lowercased()
        }
        return named.map { " (did you mean \(Diagnostic.quoted($0))?)" } ?? ""
    }

    public static func canonical(_ locale: String) -> String {
        locale.split(separator: "-", omittingEmptySubsequences: false).enumerated().map { index, part in
            if index == 0 { return part.lowercased() }
            switch part.count {
            case 2: return part.uppercased()
            case 4: return part.prefix(1).uppercased() + part.dropFirst().lowercased()
            default: return part.lowercased()
            }
        }.joined(separator: "-")
    }

    /// 10000 -> "10,000" / "10.000" / "10 000".
    func number(_ value: Int) -> String {
        Self.replacing(",", in: Formatting.grouped(value), with: self["thousandsSeparator"])
    }

    package func decimal(_ value: Double, places: Int) -> String {
        Self.replacing(".", in: Formatting.decimal(value, places: places), with: self["decimalSeparator"])
    }

    /// A price in dollars for the store's default storefront, written the local way:
    /// 1234.5 -> "$1,234.50" / "1.234,50 $" / "1 234,50 $".
    package func price(_ value: Double) -> String {
        let fixed = Formatting.decimal(value, places: 2)  // "1234.50"
        let parts = fixed.split(separator: ".", maxSplits: 1)
        let whole = Int(parts[0]).map(number) ?? String(parts[0])
        let amount = parts.count > 1 ? whole + self["decimalSeparator"] + parts[1] : whole
        return format("price", ["amount": amount])
    }

    private static func replacing(_ character: Character, in text: String, with replacement: String) -> String {
        String(character) == replacement ? text : text.split(separator: character, omittingEmptySubsequences: false).joined(separator: replacement)
    }

    /// A moment as `datetime` text, in UTC, and as text for people in this language, on the
    /// clocks of `zone` (a card created at 02:13Z was created on the day before in New York).
    package func moment(_ seconds: Int64, in zone: SiteTimeZone) -> Moment {
        Moment(iso: Formatting.iso(seconds), text: date(Self.day(seconds, in: zone), datePattern))
    }

    /// The days from `oldest` to `newest` on the clocks of `zone`, for people: "Feb 11 – Mar 2,
    /// 2026", "Dec 30, 2025 – Jan 2, 2026", "Mar 2, 2026" for one day (`dateRange` of two
    /// `dateFormat`s, the first without its year, `dateFormatWithoutYear`, when it is the
    /// second's).
    package func dateRange(_ oldest: Int64, _ newest: Int64, in zone: SiteTimeZone) -> String {
        let (first, last) = (Self.day(oldest, in: zone), Self.day(newest, in: zone))
        if first == last { return date(last, datePattern) }
        return format("dateRange", ["from": date(first, first.year == last.year ? dayPattern : datePattern), "to": date(last, datePattern)])
    }

    private typealias Day = (year: Int64, month: Int64, day: Int64)

    private static func day(_ seconds: Int64, in zone: SiteTimeZone) -> Day {
        Formatting.civilDate(daysSince1970: Formatting.days(seconds + zone.offset(at: seconds)))
    }

    private func date(_ day: Day, _ pattern: [DatePart]) -> String {
        var text = ""
        for part in pattern {
            switch part {
            case .literal(let literal): text += literal
            case .day: text += String(day.day)
            case .month: text += monthNames[Int(day.month) - 1]
            case .year: text += String(day.year)
            }
        }
        return text
    }
}
