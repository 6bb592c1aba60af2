import Testing
@testable import CardFeedModel

/// "Did you mean": one rule for every name a user types (`Suggestion`), held to a table of the
/// names each kind of message looks among.
@Suite struct SuggestionTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let typed: String
        let among: [String]
        let meant: [String]
        var testDescription: String { "\(typed) -> \(meant)" }
    }

    static let commands = ["build", "check", "explain", "serve", "init", "templates", "eject", "help"]
    static let options = ["--now", "--page-size", "--locale", "--base-url", "--csp", "--search", "--strict", "--quiet", "--stats", "--diagnostics", "--output", "--help", "--version"]
    static let types = ["banner_image", "captioned_image", "short_news", "text_announcement", "cross_promotion_small", "control", "banner", "image_only", "classic"]
    static let categories = ["news", "advertising", "announcements", "social", "uncategorized"]
    static let ids = ["sale-en", "sale-de", "nf-holiday-hours", "welcome"]
    static let templates = ["card", "card_page", "cards/short_news", "cards/captioned_image", "page", "placement", "placement_frame"]
    static let keys = ["title", "base_url", "languages", "locale", "placements", "search", "feeds", "rules", "page_size"]

    static let rows: [Row] = [
        // A typo: a letter missing, added, changed, or two swapped.
        Row(typed: "biuld", among: commands, meant: ["build"]),
        Row(typed: "--strictt", among: options, meant: ["--strict"]),
        Row(typed: "--diagnostic", among: options, meant: ["--diagnostics"]),
        Row(typed: "captioned_imag", among: types, meant: ["captioned_image"]),
        Row(typed: "nwes", among: categories, meant: ["news"]),
        Row(typed: "my-sit", among: ["my-site", "other"], meant: ["my-site"]),
        Row(typed: "card_pag", among: templates, meant: ["card_page"]),
        Row(typed: "languagse", among: keys, meant: ["languages"]),
        Row(typed: "home-her", among: ["home-hero", "sidebar"], meant: ["home-hero"]),
        Row(typed: "al", among: ["all", "news"], meant: ["all"]),
        // Only the case differs: that one alone.
        Row(typed: "NEWS", among: categories, meant: ["news"]),
        Row(typed: "Sale-EN", among: ids, meant: ["sale-en"]),
        // A name cut short: the names it begins, the shortest first, two at most.
        Row(typed: "sale", among: ids, meant: ["sale-de", "sale-en"]),
        Row(typed: "nf-holiday", among: ids, meant: ["nf-holiday-hours"]),
        Row(typed: "captioned", among: types, meant: ["captioned_image"]),
        Row(typed: "c", among: ["c1", "c2", "c10"], meant: ["c1", "c2"]),
        Row(typed: "card-", among: (1...200).map { "card-\($0)" }, meant: ["card-1", "card-2"]),
        // Two as close: both, in order; a closer one alone.
        Row(typed: "sitee", among: ["site", "site2", "sites-old"], meant: ["site", "site2"]),
        Row(typed: "sale-e", among: ids, meant: ["sale-de", "sale-en"]),
        Row(typed: "sale-enn", among: ids, meant: ["sale-en"]),
        // Nothing close: nothing said.
        Row(typed: "weather", among: categories, meant: []),
        Row(typed: "x", among: commands, meant: []),
        Row(typed: "", among: commands, meant: []),
        Row(typed: "zzz", among: [], meant: []),
        // The name itself is no suggestion.
        Row(typed: "news", among: ["news"], meant: []),
    ]

    @Test(arguments: rows)
    func suggests(_ row: Row) {
        #expect(Suggestion.names(for: row.typed, among: row.among) == row.meant)
    }

    @Test func saysOneOrTwoNamesInTheWordsOfEveryMessage() {
        #expect(Suggestion.phrase(for: "nwes", among: Self.categories) == " (did you mean \"news\"?)")
        #expect(Suggestion.phrase(for: "sale", among: Self.ids) == " (did you mean \"sale-de\" or \"sale-en\"?)")
        #expect(Suggestion.phrase(for: "weather", among: Self.categories) == "")
        #expect(Diagnostic.suggestion(for: "nwes", among: Set(Self.categories)) == " (did you mean \"news\"?)")
    }
}
