import CCmark

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CommonMark to HTML through Debian's libcmark, in its default (safe) mode: raw HTML is
/// replaced by a comment and `javascript:`, `vbscript:`, `file:` and non-image `data:` links are
/// emptied. Card descriptions are untrusted, so this must stay so.
public enum Markdown {
    public static var version: String { String(cString: cmark_version_string()) }

    public static func html(_ markdown: String) -> String {
        var source = markdown
        return source.withUTF8 { bytes in
            let rendered = bytes.withMemoryRebound(to: CChar.self) { chars in
                cmark_markdown_to_html(chars.baseAddress, chars.count, CMARK_OPT_DEFAULT)
            }
            guard let rendered else { return "" }
            defer { free(rendered) }
            return String(cString: rendered)
        }
    }
}
