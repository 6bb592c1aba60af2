import Foundation
import Testing
@testable import CardFeedLoad
@testable import CardFeedModel


/// Times as people and exports write them (`WrittenTime`), on the site's clocks (`SiteTimeZone`),
/// and as a card's date fields read them.
@Suite struct WrittenTimeTests {
    let newYork = SiteTimeZone(identifier: "America/New_York")!
    let hour: Int64 = 3600

    func utc(_ text: String) -> Int64? { WrittenTime(iso8601: text)?.moment(in: .utc) }

    /// RSS 2.0's dates, against Python's `email.utils.formatdate` for the same moments.
    @Test func writesRFC822DatesInUTC() {
        #expect(Formatting.rfc822(0) == "Thu, 01 Jan 1970 00:00:00 +0000")
        #expect(Formatting.rfc822(1_700_000_000) == "Tue, 14 Nov 2023 22:13:20 +0000")
        #expect(Formatting.rfc822(951_782_400) == "Tue, 29 Feb 2000 00:00:00 +0000")
        #expect(Formatting.rfc822(FieldReader.latestTime) == "Fri, 31 Dec 9999 23:59:59 +0000")
    }

    @Test func readsISO8601DatesAndDateTimes() {
        #expect(utc("2026-11-20") == 1_795_132_800)
        #expect(utc("2026-11-20T14:05:00Z") == 1_795_183_500)
        #expect(utc("2026-11-20t14:05:00z") == 1_795_183_500)
        #expect(utc("2026-11-20 14:05:00Z") == 1_795_183_500)
        #expect(utc("2026-11-20T14:05Z") == 1_795_183_500)
        #expect(utc("2026-11-20T14:05:00.999Z") == 1_795_183_500)  // a fraction is rounded down
        #expect(utc("2026-11-20T14:05:00,5Z") == 1_795_183_500)
        #expect(utc("2026-11-20T16:05:00+02:00") == 1_795_183_500)
        #expect(utc("2026-11-20T16:05:00+0200") == 1_795_183_500)
        #expect(utc("2026-11-20T16:05:00+02") == 1_795_183_500)
        #expect(utc("2026-11-20T09:35:00-04:30") == 1_795_183_500)
        #expect(utc(" 2026-11-20T14:05:00Z ") == 1_795_183_500)
        #expect(utc("2024-02-29") == 1_709_164_800)
        #expect(utc("1970-01-01T00:00:00Z") == 0)
        #expect(utc("9999-12-31T23:59:59Z") == FieldReader.latestTime)
    }

    @Test func refusesWhatIsNoISO8601Time() {
        for text in [
            "", "yesterday", "20/11/2026", "2026-11", "2026-1-20", "26-11-20", "2026/11/20", "2026-13-01", "2026-00-10",
            "2026-02-29", "2026-04-31", "2026-11-20T", "2026-11-20T24:00:00Z", "2026-11-20T14:60Z", "2026-11-20T14:05:61Z",
            "2026-11-20T14Z", "2026-11-20T14:05:00.Z", "2026-11-20T14:05:00+2", "2026-11-20T14:05:00+02:60",
            "2026-11-20Z", "2026-11-20T14:05:00Z junk", "1795132800", "２０２６-11-20",
        ] {
            #expect(WrittenTime(iso8601: text) == nil, "\(text)")
        }
    }

    @Test func aTimeWithoutAnOffsetIsOnTheSiteClocks() throws {
        // Midnight in New York is 05:00Z in winter, 04:00Z in summer.
        #expect(WrittenTime(iso8601: "2026-11-20")?.moment(in: newYork) == 1_795_132_800 + 5 * hour)
        #expect(WrittenTime(iso8601: "2026-07-01")?.moment(in: newYork) == 1_782_864_000 + 4 * hour)
        #expect(WrittenTime(iso8601: "2026-11-20T10:00:00")?.moment(in: newYork) == 1_795_132_800 + 15 * hour)
        // An offset given wins over the zone.
        #expect(WrittenTime(iso8601: "2026-11-20T00:00:00Z")?.moment(in: newYork) == 1_795_132_800)
        // 02:30 on 2026-03-08 is skipped in New York: read as 03:30 EDT (07:30Z).
        #expect(WrittenTime(iso8601: "2026-03-08T02:30:00")?.moment(in: newYork) == 1_772_928_000 + 7 * hour + 1800)
        // 01:30 on 2026-11-01 happens twice: the first, in EDT (05:30Z).
        #expect(WrittenTime(iso8601: "2026-11-01T01:30:00")?.moment(in: newYork) == 1_793_491_200 + 5 * hour + 1800)
        #expect(WrittenTime(unixSeconds: 1_800_000_000).moment(in: newYork) == 1_800_000_000)
    }

    @Test func civilDaysRoundTrip() {
        for days: Int64 in [-719_468, -1, 0, 1, 11_016, 20_412, 2_932_896] {
            let (year, month, day) = Formatting.civilDate(daysSince1970: days)
            #expect(Formatting.daysSince1970(year: year, month: month, day: day) == days)
        }
    }

    func load(_ card: [String: Any], timeZone: SiteTimeZone = .utc) throws -> LoadedCards {
        let site = try TempSite(["cards.json": "[" + cardJSON(card) + "]"])
        defer { site.remove() }
        var loader = CardLoader(site: site.site)
        loader.timeZone = timeZone
        return loader.load()
    }

    @Test func everyDateFieldReadsISO8601WithoutAWarning() throws {
        let long = try load([
            "id": "a", "type": "text_announcement", "description": "d",
            "created": "2026-11-20", "updated": "2026-11-20T14:05:00Z", "expires_at": "2026-12-01T00:00:00.5+01:00",
        ])
        #expect(long.diagnostics.all.isEmpty, "\(long.diagnostics.all)")
        let card = try #require(long.cards.first)
        #expect(card.created == 1_795_132_800)
        #expect(card.updated == 1_795_183_500)
        #expect(card.expiresAt == 1_796_079_600)
        let short = try load(["id": "b", "tp": "text_announcement", "ds": "d", "ca": "2026-11-20", "ea": "2026-12-01"], timeZone: newYork)
        #expect(short.diagnostics.all.isEmpty, "\(short.diagnostics.all)")
        #expect(short.cards.first?.created == 1_795_132_800 + 5 * hour)
        #expect(short.cards.first?.expiresAt == 1_796_083_200 + 5 * hour)
    }

    @Test func numbersReadAsBefore() throws {
        let loaded = try load(["id": "a", "type": "text_announcement", "description": "d", "created": 1_795_132_800_123, "updated": "1795132900", "expires_at": -1])
        let card = try #require(loaded.cards.first)
        #expect(card.created == 1_795_132_800)
        #expect(card.updated == 1_795_132_900)
        #expect(card.expiresAt == nil)
        #expect(loaded.diagnostics.all.map(\.message) == ["number written as text \"1795132900\"; read as 1795132900"])
    }

    @Test func aValueThatIsNoTimeGetsOneWarningNamingTheFormsAccepted() throws {
        let loaded = try load(["id": "a", "type": "text_announcement", "description": "d", "created": "20/11/2026", "expires_at": "soon", "updated": true])
        let messages = loaded.diagnostics.all.map { "\($0.field ?? ""): \($0.message)" }
        #expect(messages == [
            "created: \"20/11/2026\" is not a time: expected \(WrittenTime.acceptedForms); the card shows no date and sorts as the oldest",
            "updated: expected a time (\(WrittenTime.acceptedForms)), found a boolean; ignored; the card sorts by its created time",
            "expires_at: \"soon\" is not a time: expected \(WrittenTime.acceptedForms); ignored; the card does not expire",
        ])
        #expect(loaded.cards.first?.created == nil)
        let early = try load(["id": "a", "type": "text_announcement", "description": "d", "created": "1969-12-31"])
        #expect(early.diagnostics.all.map(\.message) == ["\"1969-12-31\" is before 1970, the earliest time a card can hold; the card shows no date and sorts as the oldest"])
    }
}
