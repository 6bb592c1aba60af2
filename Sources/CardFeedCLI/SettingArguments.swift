import ArgumentParser
import CardFeedLoad

/// The settings a command's options give (`Setting.commandLine`), found among its properties by
/// name: the property `pageSize` is the option `--page-size` (the argument parser's own rule), so
/// an overridable setting is its entry in `Setting.all` and its property, with no line here.
/// Tests/EndToEnd/test_settings.py gives every setting's option to each command and holds its
/// `--help` line to the entry, so a property of another name or type fails there.
enum SettingArguments {
    /// The value each setting's option holds in `options` (its `@Option` or `@Flag` property), by
    /// its setting; nothing for an option not given.
    static func given(in options: some ParsableArguments) -> SettingOverrides {
        var overrides = SettingOverrides()
        for child in Mirror(reflecting: options).children {
            guard let label = child.label, let argument = child.value as? any SettingArgument, let value = argument.settingValue else { continue }
            if let setting = setting(forProperty: label) {
                overrides[setting] = value
            } else if let setting = setting(forProperty: label, option: \.commandLine?.off?.name) {
                overrides.turnOff(setting)
            }
        }
        return overrides
    }

    /// The setting whose option (or `off` flag: `noCache`, `--no-cache`) the property
    /// `_pageSize` (a property wrapper's storage) is.
    static func setting(forProperty label: String, option: KeyPath<Setting, String?> = \.option) -> Setting? {
        let name = (label.hasPrefix("_") ? String(label.dropFirst()) : label).lowercased()
        return Setting.all.first { setting in
            setting[keyPath: option].map { $0.dropFirst(2).replacingOccurrences(of: "-", with: "") == name } ?? false
        }
    }
}

/// A command-line value that may be a setting's: what it gives the setting, nil where the
/// command line gave nothing (an option left out, a flag not set).
protocol SettingArgument {
    var settingValue: (any Sendable)? { get }
}

/// An option's value, given.
protocol SettingArgumentValue {
    var settingValue: any Sendable { get }
}

extension Int: SettingArgumentValue { var settingValue: any Sendable { self } }
extension String: SettingArgumentValue { var settingValue: any Sendable { self } }
extension NowArgument: SettingArgumentValue { var settingValue: any Sendable { time } }

extension Optional: SettingArgument where Wrapped: SettingArgumentValue {
    var settingValue: (any Sendable)? { map(\.settingValue) }
}

/// A flag gives `true`, and only when set.
extension Bool: SettingArgument {
    var settingValue: (any Sendable)? { self ? true : nil }
}

extension Option: SettingArgument where Value: SettingArgument {
    var settingValue: (any Sendable)? { wrappedValue.settingValue }
}

extension Flag: SettingArgument where Value: SettingArgument {
    var settingValue: (any Sendable)? { wrappedValue.settingValue }
}
