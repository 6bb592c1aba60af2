import Foundation
import Yams
import CardFeedModel

/// One setting of a site, declared once: its key in cardfeed.yml, its command-line option, what
/// it holds, its value when nothing sets it, and its help line; with how the file's value is read
/// and checked, how the option replaces it, and how `cardfeed config` shows the value used. The
/// config reader, the options' application, `--help`'s lines and defaults, `cardfeed config` and
/// the test that holds docs/reference.md's two tables to this one all read `Setting.all`, so a
/// setting is one entry here (and, for an option, its property in the command's `SiteOptions`,
/// which the argument parser needs, found there by its name: docs/architecture.md).
public struct Setting: Sendable, Hashable {
    /// Its key in cardfeed.yml ("page_size"), or for a setting of the command line alone its
    /// option's name ("now").
    public let name: String
    /// Whether cardfeed.yml may give it (`name` is then its key).
    public let inFile: Bool
    /// Its command-line option, if it has one, and how the option's value replaces the file's.
    public let commandLine: SettingOption?
    /// What it holds, as docs/reference.md and `cardfeed config --json` say it.
    public let type: String
    /// Its value when neither the file nor the option gives one.
    public let fallback: String
    public let help: String
    /// Reads the file's value (`value`, at `key`) into the configuration, with an error for a
    /// value it cannot take.
    let read: @Sendable (inout YAMLReader, _ key: Node, _ value: Node, inout SiteConfig) -> Void
    /// The value a build uses, as `cardfeed config` shows it.
    public let value: @Sendable (SiteConfig) -> SettingValue

    init(
        _ name: String, inFile: Bool = true, option: SettingOption? = nil, type: String, fallback: String, help: String,
        read: @escaping @Sendable (inout YAMLReader, Node, Node, inout SiteConfig) -> Void = { _, _, _, _ in },
        value: @escaping @Sendable (SiteConfig) -> SettingValue
    ) {
        self.name = name
        self.inFile = inFile
        self.commandLine = option
        self.type = type
        self.fallback = fallback
        self.help = help
        self.read = read
        self.value = value
    }

    /// A setting of the file alone that is text, kept as it is read in `property`.
    init(_ name: String, text property: WritableKeyPath<SiteConfig, String> & Sendable, fallback: String, help: String) {
        self.init(
            name, type: "text", fallback: fallback, help: help,
            read: { reader, _, value, config in if let text = reader.string(value, key: name) { config[keyPath: property] = text } },
            value: { .text($0[keyPath: property]) })
    }

    /// The same for text whose default is none.
    init(_ name: String, text property: WritableKeyPath<SiteConfig, String?> & Sendable, help: String) {
        self.init(
            name, type: "text", fallback: "none", help: help,
            read: { reader, _, value, config in if let text = reader.string(value, key: name) { config[keyPath: property] = text } },
            value: { $0[keyPath: property].map(SettingValue.text) ?? .none })
    }

    /// A setting of the file alone that is true or false, kept in `property`.
    init(_ name: String, flag property: WritableKeyPath<SiteConfig, Bool> & Sendable, fallback: String, help: String) {
        self.init(
            name, type: "true or false", fallback: fallback, help: help,
            read: { reader, _, value, config in if let flag = reader.bool(value, key: name) { config[keyPath: property] = flag } },
            value: { .flag($0[keyPath: property]) })
    }

    /// Its command-line option's name ("--page-size"), if it has one.
    public var option: String? { commandLine?.name }

    // A setting is its name: the table has one entry a name.
    public static func == (lhs: Setting, rhs: Setting) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// "(default: page_size in cardfeed.yml, else 20)", for an option's `--help`.
    public var defaultHelp: String {
        "(default: " + (inFile ? "\(name) in cardfeed.yml, else " : "") + fallback + ")"
    }

    /// Its option's `--help` line: the help with the default at its end.
    public var optionHelp: String {
        (help.hasSuffix(".") ? String(help.dropLast()) : help) + " " + defaultHelp + "."
    }

    /// The setting of this key or option name.
    public static func named(_ name: String) -> Setting? { all.first { $0.name == name } }

    /// The keys cardfeed.yml may hold at its top level, in the table's order.
    public static var fileKeys: [String] { all.filter(\.inFile).map(\.name) }
}

/// Where the value a build uses came from.
public enum SettingSource: Sendable, Equatable, CustomStringConvertible {
    /// Neither the file nor the command line gave it.
    case fallback
    /// cardfeed.yml, at this line.
    case file(line: Int?)
    /// The command line's option.
    case option(String)

    /// "default", "cardfeed.yml:12", "--page-size".
    public var description: String {
        switch self {
        case .fallback: "default"
        case .file(let line): SiteConfig.fileName + (line.map { ":\($0)" } ?? "")
        case .option(let option): option
        }
    }
}

/// A setting's value as `cardfeed config` shows it: in text, and as JSON's own kind of value.
public enum SettingValue: Sendable, Equatable {
    case text(String)
    case number(Int)
    case flag(Bool)
    case list([String])
    case none

    /// "20", "true", "en, de", "none".
    public var text: String {
        switch self {
        case .text(let text): text
        case .number(let number): String(number)
        case .flag(let flag): String(flag)
        case .list(let items): items.isEmpty ? "none" : items.joined(separator: ", ")
        case .none: "none"
        }
    }

    /// For JSONSerialization: a string, number, bool, array or NSNull.
    public var json: Any {
        switch self {
        case .text(let text): text
        case .number(let number): number
        case .flag(let flag): flag
        case .list(let items): items
        case .none: NSNull()
        }
    }
}

extension Setting {
    public static let title = Setting("title", text: \.title, fallback: "CardFeed", help: "The site's name (header, front page title).")
    public static let description = Setting("description", text: \.description, help: "The pages' meta description and the text of link previews.")
    public static let image = Setting(
        "image", type: "a file of assets/ or an http(s) URL", fallback: "none", help: "The picture of link previews.",
        read: { reader, _, value, config in config.image = reader.shareImage(value) },
        value: { $0.image.map(SettingValue.text) ?? .none })
    public static let baseURL = Setting(
        "base_url",
        option: SettingOption("--base-url", of: String.self) { baseURL, config, diagnostics in
            switch URLCheck.baseURL(baseURL) {
            case .success(let url): config.baseURL = url
            case .failure(let refusal):
                config.baseURL = nil
                diagnostics.append(Diagnostic(.error, file: "--base-url", message: "\(Diagnostic.quoted(baseURL)) \(refusal.reason)"))
            }
        },
        type: "http(s) URL", fallback: "none", help: "The address the site is published at, e.g. https://example.com/news/.",
        read: { reader, _, value, config in config.baseURL = reader.baseURL(value) },
        value: { $0.baseURL.map(SettingValue.text) ?? .none })
    public static let pageSize = Setting(
        "page_size", option: SettingOption("--page-size", of: Int.self) { pageSize, config, _ in config.pageSize = pageSize },
        type: "whole number, 0 or more", fallback: String(SiteConfig.defaultPageSize), help: "Cards a page, on average; 0 puts each feed on one page.",
        read: { reader, _, value, config in
            guard let number = reader.integer(value, key: "page_size") else { return }
            if let problem = pageSizeProblem(number) { reader.error(value, "page_size", problem) } else { config.pageSize = number }
        },
        value: { .number($0.pageSize) })
    /// What is wrong with a page size, from the file or `--page-size`.
    public static func pageSizeProblem(_ number: Int) -> String? { number >= 0 ? nil : "must be 0 (one page) or more" }

    public static let locale = Setting(
        "locale",
        option: SettingOption("--locale", of: String.self) { locale, config, diagnostics in
            if let languages = config.languages {
                // A site in several languages has each in its list; one option cannot say which it replaces.
                diagnostics.append(Diagnostic(.error, file: "--locale", message: "the site lists its languages in \(languages.location) (languages: \(languages.tags.joined(separator: ", "))); --locale sets the language of a site in one language, so change the list there instead"))
            } else {
                config.locale = locale
            }
        },
        type: "language tag", fallback: StringTable.defaultLocale, help: "The language of the pages of a site in one language.",
        read: { reader, key, value, config in
            reader.languageKeys.locale = (key, value)
            guard let locale = reader.string(value, key: "locale") else { return }
            if StringTable.isLanguageTag(locale) { config.locale = locale } else { reader.error(value, "locale", StringTable.notALanguageTag(locale)) }
        },
        value: { .text($0.locale) })
    public static let timezone = Setting(
        "timezone", type: "IANA time zone name", fallback: "UTC", help: "The site's clocks: the dates cards show, and times written without an offset.",
        read: { reader, _, value, config in if let zone = reader.timeZone(value) { config.timeZone = zone } },
        value: { .text($0.timeZone.identifier) })
    public static let future = Setting(
        "future", type: "show or hide", fallback: FutureCards.show.rawValue, help: "What a card created after the build's time does.",
        read: { reader, _, value, config in
            guard let text = reader.string(value, key: "future") else { return }
            if let future = FutureCards(rawValue: text) { config.future = future } else {
                reader.error(value, "future", "must be show (a card dated after the build's time is shown, with a warning) or hide (it waits for its date); found \(Diagnostic.quoted(text))")
            }
        },
        value: { .text($0.future.rawValue) })
    public static let descriptions = Setting(
        "descriptions", type: "markdown or text", fallback: DescriptionFormat.markdown.rawValue, help: "How cards' titles and descriptions are shown.",
        read: { reader, _, value, config in if let format = reader.descriptionFormat(value, key: "descriptions") { config.descriptions = format } },
        value: { .text($0.descriptions.rawValue) })
    public static let theme = Setting(
        "theme", type: "CSS custom properties", fallback: "none", help: "CSS custom properties for the light and the dark scheme.",
        read: { reader, _, value, config in config.theme = reader.theme(value) },
        value: { config in .list(config.theme.light.map { "\($0.name): \($0.value)" } + config.theme.dark.map { "dark.\($0.name): \($0.value)" }) })
    public static let rules = Setting(
        "rules", type: "list of rules", fallback: "none", help: "Changes to cards before they are shown.",
        read: { reader, _, value, config in config.rules = reader.rules(value) },
        value: { .list($0.rules.map(\.name)) })
    public static let links = Setting(
        "links", type: "new_tab and app_schemes", fallback: "none", help: "What a click on a card's link does.",
        read: { reader, _, value, config in config.links = reader.links(value) },
        value: { config in .list(config.links.newTab.map { "new_tab: \($0)" } + config.links.appSchemes.map { "app_schemes: \($0)" }) })
    public static let contentSecurityPolicy = Setting(
        "csp",
        option: SettingOption(flag: "--csp") { config in config.contentSecurityPolicy = config.contentSecurityPolicy ?? ContentSecurityPolicy.builtin },
        type: "true, false or a policy", fallback: "off", help: "Put a Content Security Policy in every page as a <meta> tag.",
        read: { reader, _, value, config in config.contentSecurityPolicy = reader.contentSecurityPolicy(value) },
        value: { $0.contentSecurityPolicy.map(SettingValue.text) ?? .none })
    public static let feeds = Setting(
        "feeds", type: "list of feeds", fallback: "the built-in feeds", help: "The site's feeds, in the navigation's order.",
        read: { reader, _, value, config in config.feeds = reader.feeds(value) },
        value: { .list($0.siteFeeds.map(\.slug)) })
    public static let hideEmptyFeeds = Setting(
        "hide_empty_feeds", flag: \.hideEmptyFeeds, fallback: "false", help: "A feed without cards is left out of the navigation.")
    public static let cardPages = Setting("card_pages", flag: \.cardPages, fallback: "true", help: "Each shown card has a page of its own.")
    public static let search = Setting(
        "search", option: SettingOption(flag: "--search") { config in config.search = SearchSetting(fromCommandLine: true) },
        type: "true or false", fallback: "off", help: "Give every page a search box over an index of every card, made by Pagefind.",
        read: { reader, _, value, config in
            if let flag = reader.bool(value, key: "search"), flag { config.search = SearchSetting(line: value.mark?.line, column: value.mark?.column) }
        },
        value: { .flag($0.search != nil) })
    public static let placements = Setting(
        "placements", type: "placements by name", fallback: "none", help: "Slots of other sites' pages that show the site's cards.",
        read: { reader, _, value, config in config.placements = reader.placements(value) },
        value: { config in config.placements.map { .list($0.map(\.name)) } ?? .none })
    public static let languages = Setting(
        "languages", type: "list of language tags", fallback: "none", help: "The site's languages, the first the default: a tree of pages per language.",
        read: { reader, key, value, _ in reader.languageKeys.languages = (key, value) },
        value: { config in config.languages.map { .list($0.tags) } ?? .none })
    public static let untaggedCards = Setting(
        "untagged_cards", type: "default or every", fallback: UntaggedCards.defaultLanguage.rawValue,
        help: "With languages: where a card without a language is shown.",
        read: { reader, key, value, _ in reader.languageKeys.untagged = (key, value) },
        value: { .text(($0.languages?.untagged ?? .defaultLanguage).rawValue) })
    public static let defaultLanguageFolder = Setting(
        "default_language_folder", type: "true or false", fallback: "false",
        help: "With languages: the default language's pages are under their own folder.",
        read: { reader, key, value, _ in reader.languageKeys.defaultFolder = (key, value) },
        value: { .flag($0.languages?.defaultInFolder ?? false) })
    public static let cacheDir = Setting(
        "cache_dir",
        option: SettingOption("--cache-dir", of: String.self, off: ("--no-cache", { config in config.noCache = true })) { path, config, _ in
            config.cacheDir = CacheDirSetting(path: path, fromCommandLine: true)
        },
        type: "folder path", fallback: "SITE/" + SiteConfig.defaultCacheDir,
        help: "Where the build cache is kept, what the next build reuses; a relative path in cardfeed.yml is relative to the site folder.",
        read: { reader, _, value, config in
            guard let path = reader.string(value, key: "cache_dir") else { return }
            if path.isEmpty {
                reader.error(value, "cache_dir", "must be a folder's path (relative to the site folder), not empty; leave the key out for the default, \(SiteConfig.defaultCacheDir)")
            } else {
                config.cacheDir = CacheDirSetting(path: path, line: value.mark?.line, column: value.mark?.column)
            }
        },
        value: { config in config.noCache ? .none : .text(config.cacheDir?.path ?? SiteConfig.defaultCacheDir) })
    public static let now = Setting(
        "now", inFile: false,
        option: SettingOption("--now", of: WrittenTime.self, absent: { config in config.now = WrittenTime.current.moment(in: config.timeZone) }) { now, config, _ in
            config.now = now.moment(in: config.timeZone)
        },
        type: "Unix seconds or ISO 8601 date or date-time", fallback: "the current time",
        help: "The build's time, in Unix seconds or as an ISO 8601 date or date-time (2026-11-20, 2026-11-20T10:00:00Z).",
        value: { .text(Formatting.iso($0.now)) })
    public static let strict = Setting(
        "strict", inFile: false, option: SettingOption(flag: "--strict") { config in config.strict = true },
        type: "flag", fallback: "off", help: "Treat warnings as errors: the build stops and writes nothing.",
        value: { .flag($0.strict) })

    /// Every setting: cardfeed.yml's in the order its unknown-key error lists them, then the
    /// command line's own.
    public static let all: [Setting] = [
        title, description, image, baseURL, pageSize, locale, timezone, future, descriptions, theme, rules, links,
        contentSecurityPolicy, feeds, hideEmptyFeeds, cardPages, search, placements, languages, untaggedCards,
        defaultLanguageFolder, cacheDir, now, strict,
    ]
}
