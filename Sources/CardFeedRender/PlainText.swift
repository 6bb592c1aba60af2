import Foundation

/// A title or description shown as plain text (`DescriptionFormat.text`), as Braze's SDKs show
/// it: nothing in it is interpreted, so HTML and Markdown in it read as typed.
enum PlainText {
    /// For a page: the text escaped, line ends written as LF (what the HTML parser turns CRLF and
    /// CR into anyway). The element's `white-space: pre-wrap` (the stylesheet's `card--plain-text`)
    /// keeps the line breaks, tabs and runs of spaces, as the Web SDK's does.
    static func html(_ text: String) -> String {
        HTMLEscaping.escape(lineEndsAsLF(text))
    }

    /// For the Atom and JSON feeds' HTML: feed readers apply no stylesheet of the site, so each
    /// line break is a `<br>` (runs of spaces may still be folded by a reader; JSON Feed's
    /// `content_text` has them all).
    static func feedHTML(_ text: String) -> String {
        html(text).split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "<br>\n")
    }

    /// CRLF and CR as LF, as browsers and XML parsers read them.
    static func lineEndsAsLF(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "\r")) else { return text }
        return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }
}
