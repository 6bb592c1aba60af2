import CardFeedModel

/// The settings a command's options override, each declared once: its option, its key in
/// cardfeed.yml (none for the build's time and `--strict`), and its value when neither gives one.
/// `--help` names the default from here, and `SettingOverrides.apply` is the one place the
/// command line is applied to the file's settings.
public enum OverridableSetting: String, CaseIterable, Sendable {
    case now, pageSize, locale, baseURL, contentSecurityPolicy, search, strict

    public var option: String {
        switch self {
        case .now: "--now"
        case .pageSize: "--page-size"
        case .locale: "--locale"
        case .baseURL: "--base-url"
        case .contentSecurityPolicy: "--csp"
        case .search: "--search"
        case .strict: "--strict"
        }
    }

    public var key: String? {
        switch self {
        case .now, .strict: nil
        case .pageSize: "page_size"
        case .locale: "locale"
        case .baseURL: "base_url"
        case .contentSecurityPolicy: "csp"
        case .search: "search"
        }
    }

    /// The value without the option or the key, as `--help` says it.
    public var fallback: String {
        switch self {
        case .now: "the current time"
        case .pageSize: String(SiteConfig.defaultPageSize)
        case .locale: StringTable.defaultLocale
        case .baseURL: "none"
        case .contentSecurityPolicy, .search, .strict: "off"
        }
    }

    /// "(default: page_size in cardfeed.yml, else 20)".
    public var defaultHelp: String {
        "(default: " + (key.map { "\($0) in cardfeed.yml, else " } ?? "") + fallback + ")"
    }
}

/// What a command's options say of the site's settings (see `OverridableSetting`): nil, or false
/// for a flag, where they say nothing. `ConfigLoader.load(overriding:)` applies them to
/// cardfeed.yml's as it reads the file, so build, check, explain and serve all read one
/// `SiteConfig` with the command line already in it.
public struct SettingOverrides: Sendable {
    /// The build's time; nil for the current time.
    public var now: WrittenTime?
    public var pageSize: Int?
    public var locale: String?
    /// Checked when applied: an address that is not http(s) is an error at `--base-url`.
    public var baseURL: String?
    /// The site's own policy from cardfeed.yml, else the built-in one.
    public var contentSecurityPolicy = false
    public var search = false
    public var strict = false

    public init(
        now: WrittenTime? = nil, pageSize: Int? = nil, locale: String? = nil, baseURL: String? = nil,
        contentSecurityPolicy: Bool = false, search: Bool = false, strict: Bool = false
    ) {
        self.now = now
        self.pageSize = pageSize
        self.locale = locale
        self.baseURL = baseURL
        self.contentSecurityPolicy = contentSecurityPolicy
        self.search = search
        self.strict = strict
    }

    /// `config` as the command line makes it: each option given replaces the file's value.
    func apply(to config: inout SiteConfig, _ diagnostics: inout Diagnostics) {
        for setting in OverridableSetting.allCases {
            switch setting {
            case .now: config.now = (now ?? .current).moment(in: config.timeZone)
            case .pageSize: if let pageSize { config.pageSize = pageSize }
            case .locale:
                guard let locale else { continue }
                if let languages = config.languages {
                    // A site in several languages has each in its list; one option cannot say which it replaces.
                    diagnostics.append(Diagnostic(.error, file: setting.option, message: "the site lists its languages in \(languages.location) (languages: \(languages.tags.joined(separator: ", "))); --locale sets the language of a site in one language, so change the list there instead"))
                } else {
                    config.locale = locale
                }
            case .baseURL:
                guard let baseURL else { continue }
                switch URLCheck.baseURL(baseURL) {
                case .success(let url): config.baseURL = url
                case .failure(let refusal):
                    config.baseURL = nil
                    diagnostics.append(Diagnostic(.error, file: setting.option, message: "\(Diagnostic.quoted(baseURL)) \(refusal.reason)"))
                }
            case .contentSecurityPolicy:
                if contentSecurityPolicy { config.contentSecurityPolicy = config.contentSecurityPolicy ?? ContentSecurityPolicy.builtin }
            case .search: if search { config.search = SearchSetting(fromCommandLine: true) }
            case .strict: config.strict = strict
            }
        }
    }
}
