import Foundation
import Yams
import CardFeedModel

/// Reads `SITE/cardfeed.yml` and checks every key: an unknown key or a value of the wrong type is
/// an error naming the key, line and column.
public struct ConfigLoader: Sendable {
    public let site: SiteFolder

    public init(site: SiteFolder) {
        self.site = site
    }

    public var file: URL { site.root.appendingPathComponent(SiteConfig.fileName) }

    /// The file's settings with `overrides` (the command line's) applied.
    public func load(overriding overrides: SettingOverrides = SettingOverrides(), into diagnostics: inout Diagnostics) -> SiteConfig {
        var config = read(into: &diagnostics)
        overrides.apply(to: &config, &diagnostics)
        return config
    }

    private func read(into diagnostics: inout Diagnostics) -> SiteConfig {
        var info = stat()
        guard lstat(file.path, &info) == 0 else { return SiteConfig() }
        let name = site.display(file)
        let data: Data
        do { data = try InputFile.read(file) } catch {
            diagnostics.append(Diagnostic(.error, file: name, message: error.description))
            return SiteConfig()
        }
        guard let text = String(data: data, encoding: .utf8) else {
            diagnostics.append(Diagnostic(.error, file: name, message: "cannot read the file as UTF-8 text"))
            return SiteConfig()
        }
        do { try YAMLExpansion.check(text) } catch {
            diagnostics.append(Diagnostic(
                .error, file: name, line: error.line, column: error.column,
                message: "with this alias the file's aliases expand to more than \(YAMLExpansion.nodeLimit) values (an alias bomb?); write the values out instead"))
            return SiteConfig()
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            diagnostics.append(Self.diagnostic(for: error, file: name))
            return SiteConfig()
        } catch {
            diagnostics.append(Diagnostic(.error, file: name, message: "invalid YAML: \(error)"))
            return SiteConfig()
        }
        var reader = YAMLReader(file: name)
        let config = reader.config(root)
        reader.diagnostics.forEach { diagnostics.append($0) }
        return config
    }

    static func diagnostic(for error: YamlError, file: String) -> Diagnostic {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _), .composer(let context, let problem, let mark, _):
            let detail = [context?.text, problem].compactMap { $0 }.joined(separator: " ")
            // libyaml's words for `title: Bean & Bloom: Coffee`: a ": " inside a plain value.
            let hint = problem.contains("mapping values are not allowed") ? "; a value holding \": \" must be quoted (title: \"Bean & Bloom: Coffee\")" : ""
            return Diagnostic(.error, file: file, line: mark.line, column: mark.column, message: "invalid YAML: \(detail)\(hint)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return Diagnostic(
                .error, file: file, line: context.mark.line, column: context.mark.column,
                message: "a key is given twice: \(duplicates.sorted().joined(separator: ", "))")
        default:
            return Diagnostic(.error, file: file, message: "invalid YAML: \(error)")
        }
    }
}

/// Typed reading of the YAML tree with a precise error for every surprise.
struct YAMLReader {
    let file: String
    var diagnostics: [Diagnostic] = []
    /// Each placement's feed and each rule's `keep_out_of` name, with their nodes: checked
    /// against the site's feeds and placements once the whole file is read (`checkPlacements`).
    var placementFeeds: [(placement: String, feed: String, node: Node)] = []
    var ruleKeepOutOf: [(rule: String, placement: String, node: Node)] = []

    /// `languages:`, `locale`, `untagged_cards` and `default_language_folder` where the file
    /// gives them: read together once the whole file is (`languages(_:into:)`).
    var languageKeys = LanguageKeys()

    /// Each key of the file read by its `Setting`, in the file's order.
    mutating func config(_ root: Node?) -> SiteConfig {
        var config = SiteConfig()
        guard let root else { return config }  // an empty file is an empty configuration
        guard let mapping = keyValues(root, key: "the file") else { return config }
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            guard let setting = Setting.named(key), setting.inFile else {
                unknownKey(keyNode, key, among: Setting.fileKeys)
                continue
            }
            setting.read(&self, keyNode, value, &config)
            config.sources[key] = .file(line: keyNode.mark?.line)
        }
        checkPlacements(&config)
        languages(languageKeys, into: &config)
        // With languages:, the locale is the default language, which that key gave.
        if config.languages != nil { config.sources[Setting.locale.name] = config.sources[Setting.languages.name] }
        return config
    }

    // MARK: Sections

    /// `descriptions` (and a rule's `set.descriptions`): markdown or text.
    mutating func descriptionFormat(_ node: Node, key: String) -> DescriptionFormat? {
        guard let text = string(node, key: key) else { return nil }
        if let format = DescriptionFormat(rawValue: text) { return format }
        let suggestion = Diagnostic.suggestion(for: text, among: Set(DescriptionFormat.allCases.map(\.rawValue)))
        error(node, key, "must be markdown (descriptions are Markdown) or text (titles and descriptions shown as typed, as Braze's SDKs show them); found \(Diagnostic.quoted(text))\(suggestion)")
        return nil
    }

    mutating func baseURL(_ node: Node) -> String? {
        guard let text = string(node, key: "base_url") else { return nil }
        switch URLCheck.baseURL(text) {
        case .success(let url): return url
        case .failure(let refusal):
            error(node, "base_url", refusal.reason)
            return nil
        }
    }

    /// `timezone`: an IANA time zone name such as Europe/Berlin.
    mutating func timeZone(_ node: Node) -> SiteTimeZone? {
        guard let name = string(node, key: "timezone") else { return nil }
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if let zone = SiteTimeZone(identifier: trimmed) { return zone }
        let suggestion = Diagnostic.suggestion(for: trimmed, among: Set(SiteTimeZone.knownIdentifiers))
        error(node, "timezone", "unknown time zone \(Diagnostic.quoted(name))\(suggestion); give an IANA name such as UTC, Europe/Berlin or America/New_York")
        return nil
    }

    /// `image`: a file of SITE/assets/ ("images/share.png") or an http(s) URL.
    mutating func shareImage(_ node: Node) -> String? {
        guard let text = string(node, key: "image")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let scheme = URLCheck.scheme(of: text) {
            if (scheme == "http" || scheme == "https") && URLCheck.host(of: text) != nil { return text }
        } else if !text.isEmpty, !text.hasPrefix("/"), !text.split(separator: "/").contains(".."), !text.contains("\\") {
            return text
        }
        error(node, "image", "must be a file of assets/ such as images/share.png, or an http or https address")
        return nil
    }

    /// `csp: true` (the built-in policy), `false`, or a policy of the site's own on one line.
    mutating func contentSecurityPolicy(_ node: Node) -> String? {
        guard let text = scalarText(node, key: "csp") else { return nil }
        if let flag = node.bool, node.tag.rawValue != Tag.Name.str.rawValue { return flag ? ContentSecurityPolicy.builtin : nil }
        let policy = text.trimmingCharacters(in: .whitespaces)
        guard !policy.isEmpty, !policy.contains(where: \.isNewline), policy.range(of: #"^[A-Za-z-]+ "#, options: .regularExpression) != nil else {
            error(node, "csp", "must be true, false or a policy such as \"default-src 'self'; img-src https:\"")
            return nil
        }
        return policy
    }

    mutating func theme(_ node: Node) -> Theme {
        var theme = Theme()
        guard let mapping = keyValues(node, key: "theme") else { return theme }
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            if key == "dark" {
                guard let dark = keyValues(value, key: "theme.dark") else { continue }
                for (darkKey, darkValue) in dark {
                    if let property = themeProperty(darkKey, darkValue, path: "theme.dark.") { theme.dark.append(property) }
                }
            } else if let property = themeProperty(keyNode, value, path: "theme.") {
                theme.light.append(property)
            }
        }
        theme.light.sort { $0.name < $1.name }
        theme.dark.sort { $0.name < $1.name }
        return theme
    }

    mutating func themeProperty(_ keyNode: Node, _ value: Node, path: String) -> CSSProperty? {
        let key = keyNode.string ?? ""
        guard let kind = ThemeProperty.kinds[key] else {
            unknownKey(keyNode, path + key, among: ThemeProperty.kinds.keys.sorted() + (path == "theme." ? ["dark"] : []))
            return nil
        }
        guard let text = scalarText(value, key: path + key) else { return nil }
        guard ThemeProperty.isValid(text, as: kind) else {
            error(value, path + key, "\(Diagnostic.quoted(text)) is not \(kind.rawValue)")
            return nil
        }
        return CSSProperty(name: key, value: text)
    }

    mutating func links(_ node: Node) -> LinkPolicy {
        var policy = LinkPolicy()
        guard let mapping = keyValues(node, key: "links") else { return policy }
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            switch key {
            case "new_tab": policy.newTab = hostPatterns(value, key: "links.new_tab")
            case "app_schemes":
                for scheme in stringList(value, key: "links.app_schemes") {
                    let clean = scheme.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ":/ "))
                    if ["javascript", "vbscript", "data", "file", "blob", "about"].contains(clean) {
                        error(value, "links.app_schemes", "\(Diagnostic.quoted(clean)) can run code in the browser and cannot be allowed")
                    } else if URLCheck.scheme(of: clean + ":") == nil {
                        error(value, "links.app_schemes", "\(Diagnostic.quoted(scheme)) is not a URL scheme")
                    } else {
                        policy.appSchemes.append(clean)
                    }
                }
            default: unknownKey(keyNode, "links." + key, among: ["new_tab", "app_schemes"])
            }
        }
        return policy
    }

    /// The value a rule's `set:` gives `field`, read as the field's kind; nil after an error.
    mutating func assignment(of field: CardField, _ node: Node, key: String) -> CardRule.Assignment? {
        guard let scalar = node.scalar else {
            error(node, key, "expected a single value")
            return nil
        }
        func text() -> String? {
            guard scalar.string.utf8.count <= CardDecoder.sizeLimit else {
                error(node, key, "is \(scalar.string.utf8.count) bytes long, over the \(CardDecoder.sizeLimit / 1024) KB a card may hold")
                return nil
            }
            return scalar.string
        }
        func number(_ expected: String) -> Double? {
            guard let number = node.float else {
                error(node, key, expected)
                return nil
            }
            if let problem = CardRule.problem(setting: field, to: number) {
                error(node, key, problem)
                return nil
            }
            return number
        }
        switch field.declaration.value {
        case .text: return text().map(CardRule.Assignment.text)
        case .link: return text().map(CardRule.Assignment.link)
        case .image: return text().map(CardRule.Assignment.image)
        case .flag:
            guard let flag = node.bool else {
                error(node, key, "expected true or false")
                return nil
            }
            return .flag(flag)
        case .positiveNumber:
            return number("expected a number").map { .number($0 > 0 ? $0 : nil) }
        case .integer:
            guard let number = number("expected a whole number") else { return nil }
            guard number.rounded() == number, abs(number) < FieldReader.largestTime else {
                error(node, key, "expected a whole number")
                return nil
            }
            return .integer(Int64(number))
        case .time:
            if node.float == nil, let time = WrittenTime(iso8601: scalar.string) { return .time(time) }
            return number("expected a time: \(WrittenTime.acceptedForms) (-1 for never)").map { .seconds($0 < 0 ? nil : Int64($0)) }
        case .format:
            return descriptionFormat(node, key: key).map(CardRule.Assignment.format)
        case .ownCode:
            error(node, key, "cannot be set by a rule")
            return nil
        }
    }

    mutating func rules(_ node: Node) -> [CardRule] {
        guard case .sequence(let sequence) = node else {
            error(node, "rules", "expected a list of rules (lines starting with \"- \")")
            return []
        }
        var rules: [CardRule] = []
        for (index, item) in sequence.enumerated() {
            if let rule = rule(item, number: index + 1) { rules.append(rule) }
        }
        return rules
    }

    mutating func rule(_ node: Node, number: Int) -> CardRule? {
        let path = "rules[\(number)]"
        guard let mapping = keyValues(node, key: path) else { return nil }
        var rule = CardRule(name: "rule \(number)", file: file, line: node.mark?.line, column: node.mark?.column)
        var acts = false
        let problemsBefore = diagnostics.count
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            switch key {
            case "name": if let name = string(value, key: "\(path).name") { rule.name = name }
            case "match": readMatch(value, path: "\(path).match", into: &rule)
            case "set":
                guard let set = keyValues(value, key: "\(path).set") else { continue }
                for (fieldNode, fieldValue) in set {
                    let name = fieldNode.string ?? ""
                    guard let field = CardField.settable[name] else {
                        unknownKey(fieldNode, "\(path).set.\(name)", among: CardField.settable.keys.sorted())
                        continue
                    }
                    if let assignment = assignment(of: field, fieldValue, key: "\(path).set.\(name)") {
                        rule.set.append((field, assignment))
                        acts = true
                    }
                }
            case "hide": if let flag = bool(value, key: "\(path).hide") { rule.hide = flag; acts = acts || flag }
            case "pin": if let flag = bool(value, key: "\(path).pin") { rule.pin = flag; acts = true }
            case "category":
                let names = stringList(value, key: "\(path).category")
                var categories: [FeedCategory] = []
                for name in names where name.lowercased() != "uncategorized" {
                    if let category = FeedCategory(wireName: name) { categories.append(category) } else {
                        error(value, "\(path).category", FeedCategory.unknown(name, uncategorized: true))
                    }
                }
                rule.moveTo = categories
                acts = true
            case "keep_out_of":
                if case .sequence(let items) = value, items.isEmpty { error(value, "\(path).keep_out_of", "lists no placement: give the placements the cards stay out of, such as keep_out_of: [home-hero]") }
                let items: [Node] = if case .sequence(let sequence) = value { Array(sequence) } else { [value] }
                for item in items {
                    guard let name = string(item, key: "\(path).keep_out_of") else { continue }
                    rule.keepOutOf.append(name)
                    ruleKeepOutOf.append((path, name, item))
                    acts = true
                }
            default: unknownKey(keyNode, "\(path).\(key)", among: ["name", "match", "set", "hide", "pin", "category", "keep_out_of"])
            }
        }
        if !acts && diagnostics.count == problemsBefore { error(node, path, "does nothing: give it set, hide, pin, category or keep_out_of") }
        return rule
    }

    mutating func readMatch(_ node: Node, path: String, into rule: inout CardRule) {
        guard let mapping = keyValues(node, key: path) else { return }
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            switch key {
            case "type":
                for name in stringList(value, key: "\(path).type") {
                    if let type = CardType(wireName: name) { rule.types.append(type) } else {
                        error(value, "\(path).type", CardType.unknown(name))
                    }
                }
            case "category":
                for name in stringList(value, key: "\(path).category") {
                    let lower = name.lowercased()
                    if lower == "uncategorized" || FeedCategory(wireName: lower) != nil { rule.categories.append(FeedCategory(wireName: lower)?.rawValue ?? lower) } else {
                        error(value, "\(path).category", FeedCategory.unknown(name, uncategorized: true))
                    }
                }
            case "id": rule.ids = stringList(value, key: "\(path).id")
            case "extras":
                guard let extras = keyValues(value, key: "\(path).extras") else { continue }
                for (extraKey, extraValue) in extras {
                    if let text = scalarText(extraValue, key: "\(path).extras.\(extraKey.string ?? "")") { rule.extras.append((extraKey.string ?? "", text)) }
                }
            default: unknownKey(keyNode, "\(path).\(key)", among: ["type", "category", "id", "extras"])
            }
        }
    }

    // MARK: Typed values

    mutating func keyValues(_ node: Node, key: String) -> [(Node, Node)]? {
        guard case .mapping(let mapping) = node else {
            error(node, key, "expected a set of \"key: value\" lines, found \(noun(node))")
            return nil
        }
        return Array(mapping)
    }

    mutating func scalarText(_ node: Node, key: String) -> String? {
        guard let scalar = node.scalar else {
            error(node, key, "expected a single value, found \(noun(node))")
            return nil
        }
        return scalar.string
    }

    mutating func string(_ node: Node, key: String) -> String? {
        guard let text = scalarText(node, key: key) else { return nil }
        if node.tag.rawValue != Tag.Name.str.rawValue, node.int != nil || node.bool != nil || node.null != nil {
            error(node, key, "expected text, found \(noun(node)); put it in quotes if you mean the text \(Diagnostic.quoted(text))")
            return nil
        }
        return text
    }

    mutating func integer(_ node: Node, key: String) -> Int? { scalar(node, key: key, expected: "a whole number", \.int) }

    mutating func bool(_ node: Node, key: String) -> Bool? { scalar(node, key: key, expected: "true or false", \.bool) }

    /// Whether a key's list of `count` items has at least one and at most `limit`, else an error
    /// that says which: `none` or `tooMany`.
    mutating func counts(_ count: Int, upTo limit: Int, _ node: Node, _ key: String, none: @autoclosure () -> String, tooMany: @autoclosure () -> String) -> Bool {
        if count == 0 { error(node, key, none()) } else if count > limit { error(node, key, tooMany()) }
        return (1...limit).contains(count)
    }

    /// One value that YAML reads as `read` does (`Node.int`, `.bool`), else an error that says
    /// what was `expected`.
    private mutating func scalar<Value>(_ node: Node, key: String, expected: String, _ read: (Node) -> Value?) -> Value? {
        guard scalarText(node, key: key) != nil else { return nil }
        guard let value = read(node) else {
            error(node, key, "expected \(expected)")
            return nil
        }
        return value
    }

    /// A list of text, or one text value standing for a list of one.
    /// `links.new_tab`: hosts ("partner.example"), hosts under a domain ("*.example.com") or
    /// "*". A URL or a path never matches a link's host, so it is an error that names the host.
    mutating func hostPatterns(_ node: Node, key: String) -> [String] {
        let items: [Node] = if case .sequence(let sequence) = node { Array(sequence) } else { [node] }
        return items.compactMap { item in
            guard let text = scalarText(item, key: key) else { return nil }
            if text == "*" || text.range(of: #"^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$"#, options: .regularExpression) != nil {
                return text
            }
            let host = URL(string: text.contains("://") ? text : "https://" + text)?.host
            let suggestion = host.map { " (did you mean \(Diagnostic.quoted($0))?)" } ?? ""
            error(item, key, "\(Diagnostic.quoted(text)) is not a host such as partner.example, *.example.com or *\(suggestion): links are matched by their host alone")
            return nil
        }
    }

    mutating func stringList(_ node: Node, key: String) -> [String] {
        if case .sequence(let sequence) = node {
            return sequence.compactMap { scalarText($0, key: key) }
        }
        return scalarText(node, key: key).map { [$0] } ?? []
    }

    func noun(_ node: Node) -> String {
        switch node {
        case .mapping: "a set of keys"
        case .sequence: "a list"
        case .scalar where node.null != nil: "nothing"
        case .scalar where node.bool != nil: "true or false"
        case .scalar where node.int != nil || node.float != nil: "a number"
        case .scalar: "text"
        case .alias: "an alias"
        }
    }

    mutating func error(_ node: Node, _ key: String, _ message: String) {
        diagnostics.append(Diagnostic(.error, file: file, line: node.mark?.line, column: node.mark?.column, field: key, message: message))
    }

    mutating func unknownKey(_ node: Node, _ key: String, among known: [String]) {
        let leaf = String(key.split(separator: ".").last ?? Substring(key))
        diagnostics.append(Diagnostic(
            .error, file: file, line: node.mark?.line, column: node.mark?.column, field: key,
            message: "unknown key\(Diagnostic.suggestion(for: leaf, among: Set(known))); known keys here: \(known.joined(separator: ", "))"))
    }
}
