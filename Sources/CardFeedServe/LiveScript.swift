import Foundation
import CardFeedModel

/// The script and stylesheet that `serve` adds to the pages it serves (never to a built site):
/// it listens to `/_cardfeed/events`, updates the page after a good rebuild and shows the errors
/// of a failed one over the page. An update fetches the page and puts its new body in place of
/// the old one, which shows an edit sooner than a reload (no stylesheet, script or image
/// is asked for again) and keeps the reading position; when more than the body changed (the head: a new
/// stylesheet, a template's additions), the page reloads. A browser keeps what it loaded under a
/// URL for the life of a page, so the stylesheets and images the rebuild rewrote under the same
/// name (the event lists them) are fetched again under a new query and swapped in once loaded,
/// without a flash. External files, not inline, so that pages under a strict Content Security
/// Policy still get them; all text goes in through `textContent`.
enum LiveScript {
    /// `serve/live.js` and `serve/live.css` of the package, embedded in the binary.
    static let javascript = BuiltinFiles.serveFile("live.js") ?? Data()
    static let stylesheet = BuiltinFiles.serveFile("live.css") ?? Data()
}
