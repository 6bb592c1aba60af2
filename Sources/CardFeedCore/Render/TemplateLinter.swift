import Mustache

/// Finds what Mustache itself would pass over in silence: a partial or parent template that does
/// not exist (it renders as nothing) and a variable that no card or page has (it renders as
/// nothing too, which hides a typo such as `{{titel}}`).
enum TemplateLinter {
    /// Every name a template can look up: the card's and the page's fields, the fields of their
    /// nested values, and swift-mustache's own transforms and sequence helpers.
    static let vocabulary: Set<String> = {
        var names = Set(CardView.Key.allCases.map(\.rawValue) + PageView.Key.allCases.map(\.rawValue))
        names.formUnion([
            // nested values (image, link, created, rating, nav items, pagination, ...)
            "src", "srcset", "alt", "width", "height", "placeholder", "href", "text", "iso", "name", "key",
            "value", "stars", "kind", "count", "free", "slug", "current", "total", "previous", "next",
            "pages", "number", "gap", "countText", "countNoun", "atom", "json",
            // swift-mustache transforms and sequence helpers
            "first", "last", "index", "even", "odd", "empty", "reversed", "sorted", "uppercased",
            "lowercased", "capitalized", "minusone", "plusone", "equalzero", "enumerated",
        ])
        return names
    }()

    static func check(_ text: String, file: String, templates: Set<String>) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        for tag in tags(in: text) {
            switch tag.sigil {
            case ">", "<":
                let name = tag.name.hasPrefix("*") ? nil : tag.name  // dynamic partials are resolved at render time
                if let name, !templates.contains(name) {
                    problems.append(Diagnostic(
                        .error, file: file, line: tag.line, column: tag.column,
                        message: "no template named \(Diagnostic.quoted(name))\(suggestion(for: name, among: templates))"))
                }
            case "", "#", "^", "&", "{":
                for name in lookedUpNames(tag.name) where !vocabulary.contains(name) {
                    problems.append(Diagnostic(
                        .warning, file: file, line: tag.line, column: tag.column,
                        message: "{{\(tag.sigil)\(tag.name)}} names \(Diagnostic.quoted(name)), which no card or page has, so it renders as nothing\(suggestion(for: name, among: vocabulary))"))
                }
            default:
                break
            }
        }
        return problems
    }

    struct Tag {
        var sigil: String
        var name: String
        var line: Int
        var column: Int
    }

    /// The tags of a template with their positions. A template that changes its delimiters
    /// (`{{=<% %>=}}`) is read up to that point only.
    static func tags(in text: String) -> [Tag] {
        var tags: [Tag] = []
        var line = 1
        var column = 1
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].hasPrefix("{{") {
                let start = (line, column)
                let close = text[index...].hasPrefix("{{{") ? "}}}" : "}}"
                guard let end = text.range(of: close, range: text.index(index, offsetBy: close.count)..<text.endIndex) else { break }
                var body = text[text.index(index, offsetBy: close.count)..<end.lowerBound].trimmingCharacters(in: .whitespaces)
                var sigil = close == "}}}" ? "{" : ""
                if sigil.isEmpty, let first = body.first, "#^/><$&!=%".contains(first) {
                    sigil = String(first)
                    body = String(body.dropFirst()).trimmingCharacters(in: .whitespaces)
                }
                if sigil == "=" { break }
                tags.append(Tag(sigil: sigil, name: body, line: start.0, column: start.1))
                for character in text[index..<end.upperBound] {
                    if character == "\n" { line += 1; column = 1 } else { column += 1 }
                }
                index = end.upperBound
                continue
            }
            if text[index] == "\n" { line += 1; column = 1 } else { column += 1 }
            index = text.index(after: index)
        }
        return tags
    }

    /// The names a tag looks up: `a.b` looks up `a`; `uppercased(title)` the transform and `title`;
    /// `.` and `first()` look up nothing.
    static func lookedUpNames(_ expression: String) -> [String] {
        let parts = expression.split(whereSeparator: { $0 == "(" || $0 == ")" }).map { $0.trimmingCharacters(in: .whitespaces) }
        return parts.compactMap { part in
            guard !part.isEmpty, part != "." else { return nil }
            return part.split(separator: ".").first.map(String.init)
        }
    }

    static func suggestion(for name: String, among candidates: Set<String>) -> String {
        let limit = max(1, name.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates.sorted() {
            let distance = editDistance(name.lowercased(), candidate.lowercased())
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best.map { " (did you mean \(Diagnostic.quoted($0.name))?)" } ?? ""
    }

    /// Edit distance counting a swap of two neighbouring letters as one edit ("titel" -> "title").
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }

    /// swift-mustache's parse errors have no description of their own.
    static func describe(_ error: Error) -> String {
        guard let error = error as? MustacheTemplate.Error else { return "\(error)" }
        switch error {
        case .sectionCloseNameIncorrect: return "a section is closed with a name other than the one it was opened with"
        case .unfinishedName: return "a tag is not closed"
        case .expectedSectionEnd: return "a section is opened but never closed"
        case .invalidSetDelimiter: return "a set-delimiter tag is malformed"
        case .transformAppliedToInheritanceSection: return "a transform cannot be applied to an inheritance section"
        case .illegalTokenInsideInheritSection: return "only block tags ({{$name}}) may stand inside a parent tag"
        case .textInsideInheritSection: return "only block tags ({{$name}}) may stand inside a parent tag, not text"
        case .invalidConfigVariableSyntax: return "a config tag ({{% ... }}) is malformed"
        case .unrecognisedConfigVariable: return "a config tag ({{% ... }}) names an unknown setting"
        @unknown default: return "\(error)"
        }
    }
}
