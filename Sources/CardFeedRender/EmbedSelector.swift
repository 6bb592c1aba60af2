/// One selector of the site's stylesheet as `embed/cardfeed-embed.css` has it: every class and
/// id prefixed (`EmbedHTML.prefix`), `html`, `body` and `:root` (and `:scope` outside `@scope`)
/// the placement's own element, and the element it matches (the last compound's, before any
/// pseudo-element) held inside a placement by `:where(.cardfeed-placement, .cardfeed-placement *)`,
/// which adds nothing to its specificity: so that no selector, whatever it holds inside `:not()`,
/// `:is()`, `:where()` or `:has()`, matches an element of the host's page. Classes and ids
/// inside those are prefixed too; the selector is the site's chrome when any class it names is
/// not a card's.
enum EmbedSelector {
    enum Scoped: Equatable {
        /// The selector as a placement has it, and whether it matches the placement's own element
        /// (`body`, `:root`) rather than one inside it.
        case scoped(String, isRoot: Bool)
        /// A selector of the site's chrome (header, navigation, a feed's page): not a placement's.
        case chrome
        /// A selector that cannot be held inside a placement, and why.
        case unscopable(String)
    }

    /// The placement's own element.
    static let root = "." + EmbedHTML.prefix + "placement"
    /// What holds a selector's element inside a placement.
    static let inside = ":where(\(root), \(root) *)"

    /// `selector` (one complex selector, without commas at its top level) scoped; `condition`
    /// is added where `inside` is (the scheme a placement is told, `EmbedStylesheet`).
    static func scope(_ selector: String, condition: String = "") -> Scoped {
        var rewriter = Rewriter()
        let rewritten = rewriter.complex(Array(selector.unicodeScalars), topLevel: true)
        if let problem = rewriter.problem { return .unscopable(problem) }
        if rewriter.chrome { return .chrome }
        var out = rewritten.text
        let insertAt = out.unicodeScalars.index(out.unicodeScalars.startIndex, offsetBy: rewritten.subjectEnd)
        let isRoot = rewritten.subjectIsRoot
        out.unicodeScalars.insert(contentsOf: ((isRoot ? "" : inside) + condition).unicodeScalars, at: insertAt)
        return .scoped(out, isRoot: isRoot)
    }

    /// The classes the cards' HTML uses besides their own `card…`.
    private static let cardClasses: Set<String> = ["visually-hidden", "stars"]

    static func isCardClass(_ name: String) -> Bool {
        name == "card" || name.hasPrefix("card__") || name.hasPrefix("card--") || name.hasPrefix("star--") || cardClasses.contains(name)
    }

    /// Pseudo-classes whose argument is a selector list (`:nth-child(… of S)` is handled apart).
    private static let selectorArguments: Set<String> = ["not", "is", "where", "has", "matches", "any", "-webkit-any", "-moz-any"]
    /// Pseudo-elements written with one colon, from CSS 2.
    private static let legacyPseudoElements: Set<String> = ["before", "after", "first-line", "first-letter"]
    /// What only a shadow tree or the host page itself can match.
    private static let shadowOnly: Set<String> = ["host", "host-context", "slotted", "part"]

    private struct Rewritten {
        var text: String
        /// Where, in unicode scalars of `text`, the element's compound ends: before its
        /// pseudo-element, if any.
        var subjectEnd: Int
        var subjectIsRoot: Bool
    }

    private struct Rewriter {
        var chrome = false
        var problem: String?

        /// A complex selector (or a relative one, inside `:has()`).
        mutating func complex(_ s: [Unicode.Scalar], topLevel: Bool) -> Rewritten {
            var out = String.UnicodeScalarView()
            var i = 0
            var compoundStart = true
            var compoundIsRoot = false
            var previousCompoundWasRoot = false
            var previousCompoundEnd = 0
            var pseudoElementAt: Int?
            var combinator: Unicode.Scalar?

            func isNameScalar(_ c: Unicode.Scalar) -> Bool {
                c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-" || c == "_" || c.value > 0x7F || c == "\\"
            }
            func name(from start: Int) -> (String, Int) {
                var end = start
                var name = String.UnicodeScalarView()
                while end < s.count, isNameScalar(s[end]) {
                    if s[end] == "\\", end + 1 < s.count {
                        name.append(s[end])
                        end += 1
                    }
                    name.append(s[end])
                    end += 1
                }
                return (String(name), end)
            }
            /// Emits the placement's element for a compound that is `html`, `body` or `:root`;
            /// `html body` and `:root > body` are one element, the placement's.
            func emitRoot() {
                if compoundIsRoot { return }
                if topLevel, previousCompoundWasRoot, combinator == " " || combinator == ">" {
                    out = String.UnicodeScalarView(out.prefix(previousCompoundEnd))
                    compoundIsRoot = true
                    combinator = nil
                    return
                }
                out.append(contentsOf: root.unicodeScalars)
                compoundIsRoot = true
            }

            while i < s.count {
                let c = s[i]
                if c.properties.isWhitespace || c == ">" || c == "+" || c == "~" {
                    // A combinator: the compound before it ends here.
                    var j = i
                    var kind: Unicode.Scalar = " "
                    while j < s.count, s[j].properties.isWhitespace || s[j] == ">" || s[j] == "+" || s[j] == "~" {
                        if !s[j].properties.isWhitespace { kind = s[j] }
                        j += 1
                    }
                    if out.isEmpty && !topLevel || j == s.count {
                        // A relative selector's leading combinator, or spaces at the end.
                        if j < s.count { out.append(contentsOf: (kind == " " ? "" : String(kind) + " ").unicodeScalars) }
                        i = j
                        continue
                    }
                    if !out.isEmpty {
                        previousCompoundWasRoot = compoundIsRoot
                        previousCompoundEnd = out.count
                    }
                    out.append(contentsOf: (kind == " " ? " " : " \(kind) ").unicodeScalars)
                    combinator = kind
                    compoundStart = true
                    compoundIsRoot = false
                    pseudoElementAt = nil
                    i = j
                    continue
                }
                defer { compoundStart = false }
                switch c {
                case "\"", "'":
                    // Only inside brackets, which are copied whole below.
                    out.append(c)
                    i += 1
                case "[":
                    var j = i
                    var quote: Unicode.Scalar?
                    while j < s.count {
                        let d = s[j]
                        out.append(d)
                        j += 1
                        if let q = quote {
                            if d == "\\", j < s.count { out.append(s[j]); j += 1 } else if d == q { quote = nil }
                        } else if d == "\"" || d == "'" {
                            quote = d
                        } else if d == "]" {
                            break
                        }
                    }
                    i = j
                case ".", "#":
                    let (found, end) = name(from: i + 1)
                    if c == ".", !isCardClass(found) { chrome = true }
                    out.append(c)
                    out.append(contentsOf: (EmbedHTML.prefix + found).unicodeScalars)
                    i = end
                case ":":
                    let double = i + 1 < s.count && s[i + 1] == ":"
                    let (found, end) = name(from: i + (double ? 2 : 1))
                    let lower = found.lowercased()
                    if EmbedSelector.shadowOnly.contains(lower) {
                        problem = "\(double ? "::" : ":")\(found) matches only in a shadow tree or the host page"
                        return Rewritten(text: String(out), subjectEnd: out.count, subjectIsRoot: false)
                    }
                    if !double, lower == "root" || lower == "scope" {
                        emitRoot()
                        i = end
                        continue
                    }
                    if double || EmbedSelector.legacyPseudoElements.contains(lower) {
                        if pseudoElementAt == nil { pseudoElementAt = out.count }
                    }
                    out.append(contentsOf: (double ? "::" : ":").unicodeScalars)
                    out.append(contentsOf: found.unicodeScalars)
                    i = end
                    guard i < s.count, s[i] == "(" else { continue }
                    let close = closing(s, from: i)
                    let argument = Array(s[(i + 1)..<min(close, s.count)])
                    out.append("(")
                    if !double, EmbedSelector.selectorArguments.contains(lower) {
                        out.append(contentsOf: list(argument).unicodeScalars)
                    } else if !double, lower == "nth-child" || lower == "nth-last-child", let of = ofClause(argument) {
                        out.append(contentsOf: String(String.UnicodeScalarView(argument[..<of.selectors])).unicodeScalars)
                        out.append(contentsOf: list(Array(argument[of.selectors...])).unicodeScalars)
                    } else {
                        out.append(contentsOf: argument)
                    }
                    out.append(")")
                    i = close + 1
                case "&":
                    problem = "& outside a rule to nest in"
                    return Rewritten(text: String(out), subjectEnd: out.count, subjectIsRoot: false)
                case "*":
                    out.append(c)
                    i += 1
                default:
                    if compoundStart, isNameScalar(c) {
                        let (found, end) = name(from: i)
                        if end < s.count, s[end] == "|" {
                            // A namespace prefix: the type follows.
                            out.append(contentsOf: found.unicodeScalars)
                            i = end
                            continue
                        }
                        let lower = found.lowercased()
                        if lower == "html" || lower == "body" {
                            emitRoot()
                        } else {
                            out.append(contentsOf: found.unicodeScalars)
                        }
                        i = end
                    } else {
                        out.append(c)
                        i += 1
                    }
                }
            }
            return Rewritten(text: String(out), subjectEnd: pseudoElementAt ?? out.count, subjectIsRoot: compoundIsRoot)
        }

        /// A selector list (an argument of `:is()`), each rewritten.
        private mutating func list(_ s: [Unicode.Scalar]) -> String {
            EmbedSelector.split(String(String.UnicodeScalarView(s))).map { complex(Array($0.unicodeScalars), topLevel: false).text }.joined(separator: ", ")
        }

        /// Where ` of ` is in `:nth-child(2n+1 of S)`, and S begins.
        private func ofClause(_ s: [Unicode.Scalar]) -> (keyword: Int, selectors: Int)? {
            let text = String(String.UnicodeScalarView(s)).lowercased()
            guard let range = text.range(of: " of ") else { return nil }
            let keyword = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: range.lowerBound)
            return (keyword, keyword + 4)
        }

        /// The index of the `)` that closes the `(` at `open`.
        private func closing(_ s: [Unicode.Scalar], from open: Int) -> Int {
            var depth = 0
            var i = open
            var quote: Unicode.Scalar?
            while i < s.count {
                let c = s[i]
                if let q = quote {
                    if c == "\\" { i += 1 } else if c == q { quote = nil }
                } else if c == "\"" || c == "'" {
                    quote = c
                } else if c == "(" {
                    depth += 1
                } else if c == ")" {
                    depth -= 1
                    if depth == 0 { return i }
                }
                i += 1
            }
            return s.count
        }

    }

    /// Selectors split at the commas between them (not those inside `:is(…)` or a string).
    static func split(_ prelude: String) -> [String] {
        var parts: [String] = []
        var current = String.UnicodeScalarView()
        var depth = 0
        var quote: Unicode.Scalar?
        var escaped = false
        for c in prelude.unicodeScalars {
            if escaped {
                current.append(c)
                escaped = false
                continue
            }
            if c == "\\" {
                escaped = true
                current.append(c)
                continue
            }
            if let q = quote {
                if c == q { quote = nil }
                current.append(c)
                continue
            }
            if c == "\"" || c == "'" { quote = c }
            if c == "(" || c == "[" { depth += 1 }
            if c == ")" || c == "]" { depth -= 1 }
            if c == ",", depth == 0 {
                parts.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(c)
            }
        }
        parts.append(String(current))
        return parts.map { $0.trimmingCSSSpace() }.filter { !$0.isEmpty }
    }
}
