import CardFeedModel

/// What a command's options say of the site's settings (see `Setting`): nil, or false
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
    /// `--cache-dir`, as given (relative to the working folder).
    public var cacheDir: String?
    /// `--no-cache`: no build cache, whatever `cache_dir:` says.
    public var noCache = false

    public init(
        now: WrittenTime? = nil, pageSize: Int? = nil, locale: String? = nil, baseURL: String? = nil,
        contentSecurityPolicy: Bool = false, search: Bool = false, strict: Bool = false, cacheDir: String? = nil, noCache: Bool = false
    ) {
        self.now = now
        self.pageSize = pageSize
        self.locale = locale
        self.baseURL = baseURL
        self.contentSecurityPolicy = contentSecurityPolicy
        self.search = search
        self.strict = strict
        self.cacheDir = cacheDir
        self.noCache = noCache
    }

    /// `config` as the command line makes it: each option given replaces the file's value (each
    /// setting's `override`), and the configuration notes that it came from the option.
    func apply(to config: inout SiteConfig, _ diagnostics: inout Diagnostics) {
        for setting in Setting.all {
            guard let override = setting.override, let option = setting.option else { continue }
            if override(self, &config, &diagnostics) { config.sources[setting.name] = .option(option) }
        }
    }
}
