/// Checks that HTML written from untrusted cards can do nothing in a browser: every tag and
/// attribute is one CardFeed writes on purpose, no attribute is an event handler or a style,
/// the only script is CardFeed's own external one, and every URL has a harmless scheme once the
/// browser has decoded its entities and dropped the characters it ignores.
///
/// This relies on a property of our output that the checker also verifies: a `<` in text is
/// always escaped, so every literal `<` starts a tag, a comment or the doctype.
enum InertHTML {
    static let tags: Set<String> = [
        "html", "head", "meta", "base", "title", "link", "script", "body", "header", "main", "footer", "nav", "div",
        "p", "a", "span", "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6", "article", "img", "time", "strong",
        "em", "code", "pre", "blockquote", "hr", "br", "button", "b", "i", "u",
    ]
    static let attributes: Set<String> = [
        "class", "id", "href", "src", "srcset", "alt", "width", "height", "loading", "decoding", "title", "lang", "dir",
        "charset", "name", "content", "rel", "type", "target", "datetime", "defer", "start", "http-equiv", "property", "tabindex",
    ]
    /// Schemes a link may have (the probe's site allows the app scheme `myapp`).
    static let linkSchemes: Set<String> = ["http", "https", "mailto", "tel", "myapp"]
    static let imageSchemes: Set<String> = ["http", "https"]
    /// cmark's safe mode keeps these `data:` images in Markdown, which cannot run script.
    static let dataImages = ["data:image/png", "data:image/gif", "data:image/jpeg", "data:image/webp"]

    /// The problems found, empty when the HTML is inert.
    static func problems(_ html: String) -> [String] {
        var problems: [String] = []
        let chars = Array(html.unicodeScalars)
        var i = 0
        while i < chars.count {
            guard chars[i] == "<" else {
                i += 1
                continue
            }
            if starts(chars, i, "<!--") {
                guard let end = find(chars, "-->", from: i + 4) else { return problems + ["an unclosed comment"] }
                i = end + 3
                continue
            }
            if starts(chars, i, "<!DOCTYPE html>") {
                i += 15
                continue
            }
            var j = i + 1
            let closing = j < chars.count && chars[j] == "/"
            if closing { j += 1 }
            let nameStart = j
            while j < chars.count, isNameChar(chars[j]) { j += 1 }
            let name = String(String.UnicodeScalarView(chars[nameStart..<j])).lowercased()
            guard tags.contains(name) else {
                problems.append("a \"<\" that starts \(name.isEmpty ? "no known tag" : "the tag <\(name)>") at \(i): \(context(chars, i))")
                i += 1
                continue
            }
            var attributes: [(String, String?)] = []
            while true {
                while j < chars.count, chars[j] == " " || chars[j] == "\n" || chars[j] == "\t" { j += 1 }
                guard j < chars.count else { return problems + ["a tag that never closes at \(i)"] }
                if chars[j] == ">" { j += 1; break }
                if chars[j] == "/", j + 1 < chars.count, chars[j + 1] == ">" { j += 2; break }
                let attributeStart = j
                while j < chars.count, isNameChar(chars[j]) { j += 1 }
                let attribute = String(String.UnicodeScalarView(chars[attributeStart..<j])).lowercased()
                guard !attribute.isEmpty else { return problems + ["unexpected \(chars[j]) in the tag at \(i): \(context(chars, i))"] }
                var value: String?
                if j < chars.count, chars[j] == "=" {
                    j += 1
                    guard j < chars.count, chars[j] == "\"" else { return problems + ["an unquoted attribute value at \(j): \(context(chars, i))"] }
                    guard let end = chars[(j + 1)...].firstIndex(of: "\"") else { return problems + ["an attribute value that never closes at \(j)"] }
                    value = String(String.UnicodeScalarView(chars[(j + 1)..<end]))
                    j = end + 1
                }
                attributes.append((attribute, value))
            }
            if !closing { problems += check(tag: name, attributes, at: i, chars) }
            i = j
        }
        return problems
    }

    private static func check(tag: String, _ attributes: [(String, String?)], at offset: Int, _ chars: [Unicode.Scalar]) -> [String] {
        var problems: [String] = []
        let names = attributes.map(\.0)
        if tag == "script" && !(names == ["src", "defer"] && attributes[0].1 == "assets/cardfeed.js") {
            problems.append("a script other than assets/cardfeed.js at \(offset): \(context(chars, offset))")
        }
        for (name, value) in attributes {
            if name.hasPrefix("on") || name == "style" || !(Self.attributes.contains(name) || name.hasPrefix("data-") || name.hasPrefix("aria-")) {
                problems.append("the attribute \(name) at \(offset): \(context(chars, offset))")
                continue
            }
            guard let value else { continue }
            if value.contains("<") {
                problems.append("a raw \"<\" in the attribute \(name) at \(offset)")
            }
            let decoded = decodeEntities(value)
            guard let text = decoded else {
                problems.append("an entity that is not one CardFeed writes in \(name)=\"\(value.prefix(60))\" at \(offset)")
                continue
            }
            switch (tag, name) {
            case (_, "href") where tag != "link" && tag != "base":
                if let problem = urlProblem(text, schemes: linkSchemes, dataImages: false) { problems.append("\(tag) href: \(problem) at \(offset)") }
            case ("img", "src"):
                if let problem = urlProblem(text, schemes: imageSchemes, dataImages: true) { problems.append("img src: \(problem) at \(offset)") }
            case ("img", "srcset"):
                for candidate in text.split(separator: ",") {
                    let url = candidate.split(separator: " ").first.map(String.init) ?? ""
                    if let problem = urlProblem(url, schemes: imageSchemes, dataImages: false) { problems.append("img srcset: \(problem) at \(offset)") }
                }
            case ("meta", "http-equiv"):
                if text.lowercased() != "content-security-policy" { problems.append("meta http-equiv=\(text) at \(offset)") }
            case ("a", "target"):
                if text != "_blank" { problems.append("a target=\(text) at \(offset)") }
            default: break
            }
        }
        if tag == "a", attributes.contains(where: { $0.0 == "target" }), !attributes.contains(where: { $0.0 == "rel" && ($0.1 ?? "").contains("noopener") }) {
            problems.append("a link that opens a new tab without rel=noopener at \(offset)")
        }
        return problems
    }

    /// What is wrong with a URL as a browser reads it, or nil when it is harmless.
    static func urlProblem(_ raw: String, schemes: Set<String>, dataImages: Bool) -> String? {
        // Browsers drop tabs and newlines anywhere, and C0 controls and spaces at either end.
        var scalars = raw.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
        while let first = scalars.first, first.value <= 0x20 { scalars.removeFirst() }
        let url = String(String.UnicodeScalarView(scalars)).lowercased()
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let candidate = url[..<colon]
        let isScheme = candidate.first.map { $0.isASCII && $0.isLetter } == true
            && candidate.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
        // Without a valid scheme before the colon it is a relative URL, which runs nothing.
        if !isScheme { return nil }
        if schemes.contains(String(candidate)) { return nil }
        if dataImages, isDataImage(url) { return nil }
        return "the scheme \(candidate): in \"\(raw.prefix(60))\""
    }

    private static func isDataImage(_ url: String) -> Bool { Self.dataImages.contains { url.hasPrefix($0) } }

    /// The attribute value with its character references decoded, or nil when it holds a
    /// reference other than those CardFeed and cmark write.
    static func decodeEntities(_ value: String) -> String? {
        guard value.contains("&") else { return value }
        var out = String.UnicodeScalarView()
        var scalars = Substring(value).unicodeScalars[...]
        while let first = scalars.first {
            scalars = scalars.dropFirst()
            guard first == "&" else { out.append(first); continue }
            guard let semicolon = scalars.prefix(10).firstIndex(of: ";") else { return nil }
            let name = String(String.UnicodeScalarView(scalars[..<semicolon]))
            scalars = scalars[scalars.index(after: semicolon)...]
            switch name {
            case "amp": out.append("&")
            case "lt": out.append("<")
            case "gt": out.append(">")
            case "quot": out.append("\"")
            case "#39", "#x27": out.append("'")
            default: return nil
            }
        }
        return String(out)
    }

    private static func isNameChar(_ c: Unicode.Scalar) -> Bool {
        c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-" || c == "_" || c == ":")
    }

    private static func starts(_ chars: [Unicode.Scalar], _ at: Int, _ text: String) -> Bool {
        let wanted = Array(text.unicodeScalars)
        return at + wanted.count <= chars.count && Array(chars[at..<at + wanted.count]) == wanted
    }

    private static func find(_ chars: [Unicode.Scalar], _ text: String, from: Int) -> Int? {
        var index = from
        while index < chars.count {
            if starts(chars, index, text) { return index }
            index += 1
        }
        return nil
    }

    private static func context(_ chars: [Unicode.Scalar], _ at: Int) -> String {
        String(String.UnicodeScalarView(chars[at..<min(chars.count, at + 80)]))
    }
}
