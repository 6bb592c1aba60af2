import ArgumentParser
import Foundation
import CardFeedModel

/// How warnings and errors are printed on standard error: `text` for people, `json` for tools.
enum DiagnosticFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text, json
}

/// Prints each warning and error as the build finds it: a line of text or a JSON object on
/// standard error, and, in a GitHub Actions job, also a workflow command on standard output so
/// that it is shown on the pull request, at the file and line.
struct DiagnosticPrinter: Sendable {
    var format: DiagnosticFormat
    /// True when GITHUB_ACTIONS is "true", as in every GitHub Actions job.
    var github: Bool

    init(format: DiagnosticFormat, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.format = format
        github = environment["GITHUB_ACTIONS"] == "true"
    }

    /// Prints `diagnostics`: as text, those that repeat card after card once a file
    /// (`Diagnostics.summarisedLines`); as JSON and workflow commands, each card's own, which tools read.
    func print(_ diagnostics: [Diagnostic]) {
        switch format {
        case .text:
            for (severity, text) in Diagnostics.summarisedLines(diagnostics) {
                Console.printError(text, prefix: severity == .error ? "error: " : "warning: ")
            }
        case .json: diagnostics.forEach { Console.printError(Self.json($0), prefix: "") }
        }
        if github { diagnostics.forEach { Console.workflowCommand(Self.workflowCommand($0)) } }
    }

    func print(_ diagnostic: Diagnostic) { print([diagnostic]) }

    /// One line of JSON, keys always present and in this order (null when unknown):
    /// `{"severity":"warning","file":"site/cards.json","line":3,"column":3,"card":1,"id":"x","field":"image","message":"…"}`.
    /// `card` counts from 1, as the text does.
    static func json(_ diagnostic: Diagnostic) -> String {
        func string(_ value: String?) -> String { value.map(quoted) ?? "null" }
        func number(_ value: Int?) -> String { value.map(String.init) ?? "null" }
        return "{\"severity\":\(quoted(diagnostic.severity.rawValue)),\"file\":\(string(diagnostic.file)),"
            + "\"line\":\(number(diagnostic.line)),\"column\":\(number(diagnostic.column)),"
            + "\"card\":\(number(diagnostic.cardIndex.map { $0 + 1 })),\"id\":\(string(diagnostic.cardID)),"
            + "\"field\":\(string(diagnostic.field)),\"message\":\(quoted(diagnostic.message))}"
    }

    /// A JSON string: quotes, backslashes and the characters a terminal acts on
    /// (`Diagnostic.isControl`: C0, DEL, C1, U+2028/9, bidirectional overrides) escaped,
    /// everything else as is.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where Diagnostic.isControl(scalar):
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        // GitHub's older command form (`##[`, read anywhere in a line) as JSON that means the same.
        return out.replacingOccurrences(of: "##[", with: "##\\u005b") + "\""
    }

    /// `::warning file=site/cards.json,line=3,col=3,title=cardfeed::card 1 (id "x"): field "image": …`
    /// (https://docs.github.com/actions/reference/workflow-commands-for-github-actions).
    static func workflowCommand(_ diagnostic: Diagnostic) -> String {
        // Control characters are shown as \u{1b}, as on the terminal: the log is read in one.
        let shown = { (text: String) in Diagnostic.escapingControls(text) }
        var properties = ["file=\(escapeProperty(shown(diagnostic.file)))"]
        if let line = diagnostic.line { properties.append("line=\(line)") }
        if let column = diagnostic.column { properties.append("col=\(column)") }
        properties.append("title=cardfeed")
        var text = ""
        if let card = diagnostic.cardIndex {
            text += "card \(card + 1)"
            if let id = diagnostic.cardID { text += " (id \"\(shown(id))\")" }
            text += ": "
        }
        if let field = diagnostic.field { text += "field \"\(shown(field))\": " }
        text += shown(diagnostic.message)
        return "::\(diagnostic.severity.rawValue) \(properties.joined(separator: ","))::\(escapeData(text))"
    }

    static func escapeData(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
        return Console.neutralisingOldCommands(escaped)
    }

    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
