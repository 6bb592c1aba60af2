import CardFeedModel

/// A setting's command-line option (`Setting.commandLine`): its name, and how the value it gives
/// (`Int`, `String`, `WrittenTime`; `true` for a flag, given only when set), which the command's
/// property for it holds, replaces the file's.
public struct SettingOption: Sendable {
    /// "--page-size".
    public let name: String
    /// Puts the option's value in the configuration, over the file's.
    let apply: @Sendable (any Sendable, inout SiteConfig, inout Diagnostics) -> Void
    /// What the setting is when the option is not given, where that is neither the file's value
    /// nor a constant (`--now`: the time of the build).
    let absent: (@Sendable (inout SiteConfig) -> Void)?
    /// The flag that turns the setting off whatever the file says (`--no-cache`), if it has one,
    /// and what it does; it wins over the option (the command refuses both at once).
    public let off: (name: String, apply: @Sendable (inout SiteConfig) -> Void)?

    /// An option that gives a value of `type`.
    init<Value: Sendable>(
        _ name: String, of type: Value.Type, absent: (@Sendable (inout SiteConfig) -> Void)? = nil,
        off: (name: String, apply: @Sendable (inout SiteConfig) -> Void)? = nil,
        apply: @escaping @Sendable (Value, inout SiteConfig, inout Diagnostics) -> Void
    ) {
        self.name = name
        self.absent = absent
        self.off = off
        self.apply = { given, config, diagnostics in
            // The command's property for the option holds another type than the setting takes:
            // Tests/EndToEnd/test_settings.py gives every option, so such a mismatch fails there.
            guard let value = given as? Value else { preconditionFailure("\(name) takes \(Value.self), given \(Swift.type(of: given))") }
            apply(value, &config, &diagnostics)
        }
    }

    /// A flag: `apply` runs when it is given.
    init(flag name: String, apply: @escaping @Sendable (inout SiteConfig) -> Void) {
        self.init(name, of: Bool.self) { _, config, _ in apply(&config) }
    }
}

/// What a command's options say of the site's settings (see `Setting`): the value of each option
/// given, by its setting. `ConfigLoader.load(overriding:)` applies them to cardfeed.yml's as it
/// reads the file, each through its setting's `SettingOption`, so build, check, explain, config
/// and serve all read one `SiteConfig` with the command line already in it.
public struct SettingOverrides: Sendable {
    private var given: [Setting: any Sendable]
    /// The settings whose `off` flag was given.
    private var turnedOff: Set<Setting> = []

    /// `given`: each option's value, of the type its `SettingOption` takes (`true` for a flag given).
    public init(_ given: [Setting: any Sendable] = [:]) {
        self.given = given
    }

    /// Gives `setting`'s `off` flag (`--no-cache`).
    public mutating func turnOff(_ setting: Setting) {
        turnedOff.insert(setting)
    }

    /// The value the option of `setting` gave; nil where it gave none.
    public subscript(setting: Setting) -> (any Sendable)? {
        get { given[setting] }
        set { given[setting] = newValue }
    }

    /// `config` as the command line makes it: each option given replaces the file's value, and
    /// the configuration notes that it came from the option.
    func apply(to config: inout SiteConfig, _ diagnostics: inout Diagnostics) {
        for setting in Setting.all {
            guard let option = setting.commandLine else { continue }
            if let off = option.off, turnedOff.contains(setting) {
                off.apply(&config)
                config.sources[setting.name] = .option(off.name)
            } else if let value = given[setting] {
                option.apply(value, &config, &diagnostics)
                config.sources[setting.name] = .option(option.name)
            } else {
                option.absent?(&config)
            }
        }
    }
}
