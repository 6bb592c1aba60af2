/// The built-in page templates (`page`, `partials/nav`, `partials/pagination`), written out in
/// Swift for the same reason as `BuiltinCardWriter`: a paginated site of 100,000 cards has some
/// 10,000 pages, and swift-mustache took about 250 µs for each. Used only when the site
/// overrides none of them; `BuiltinPageWriterTests` holds it to the Mustache files' output.
struct BuiltinPageWriter {
    static let templates = [TemplateSet.pageTemplate, "partials/nav", "partials/pagination"]

    /// What every page of a feed has in common, written once per feed: a paginated feed of
    /// 100,000 cards has thousands of pages, which differ only in their title, their own path,
    /// the page count and the pagination links.
    struct FeedParts: Sendable {
        /// Up to `<title>`.
        var head: String
        /// From after `</title>` to the skip link.
        var body: String
        /// From after the skip link to the card count.
        var header: String
        /// After the pagination.
        var footer: String
        /// The strings of the page-by-page parts, escaped: the skip link's, the empty feed's
        /// message, and the pagination's label, steps and page word.
        var skipLabel: String
        var emptyMessage: String
        var paginationStart: String
        var newer: String
        var older: String
        var pageWord: String
    }

    /// The shared parts of the pages of `view`'s feed (any page of it).
    func feedParts(_ view: PageView) -> FeedParts {
        let strings = view.settings.strings
        var head = "<!DOCTYPE html>\n<html lang=\"\(escape(strings.locale))\">\n<head>\n<meta charset=\"utf-8\">\n"
        if let csp = view.settings.contentSecurityPolicy {
            head += "<meta http-equiv=\"Content-Security-Policy\" content=\"\(escape(csp))\">\n"
        }
        head += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        head += "<base href=\"\(escape(view.root))\">\n"

        var body = "<meta name=\"generator\" content=\"\(escape(text(view, .generator)))\">\n"
        body += "<meta name=\"color-scheme\" content=\"light dark\">\n"
        for stylesheet in view.settings.stylesheets { body += "<link rel=\"stylesheet\" href=\"\(escape(stylesheet))\">\n" }
        for alternate in view.alternates {
            body += "<link rel=\"alternate\" type=\"application/atom+xml\" href=\"\(escape(alternate.atom))\" title=\"\(escape(alternate.title))\">\n"
            body += "<link rel=\"alternate\" type=\"application/feed+json\" href=\"\(escape(alternate.json))\" title=\"\(escape(alternate.title))\">\n"
        }
        body += "<script src=\"assets/cardfeed.js\" defer></script>\n</head>\n"
        body += "<body class=\"feed-\(escape(view.feed.slug))\" data-dismiss-label=\"\(escape(strings["dismiss"]))\">\n"

        var header = "<header class=\"site-header\">\n<div class=\"site-header__inner\">\n"
        header += "<p class=\"site-title\"><a href=\"index.html\">\(escape(view.settings.siteTitle))</a></p>\n"
        writeNav(view, into: &header)
        header += "</div>\n</header>\n<main class=\"feed\" id=\"main\">\n<div class=\"feed__heading\">\n"
        header += "<h1 class=\"feed__title\">\(escape(view.feed.title))</h1>\n"

        let footer = "</main>\n<footer class=\"site-footer\">\n<p>\(escape(text(view, .madeWith)))</p>\n</footer>\n</body>\n</html>\n"
        return FeedParts(
            head: head, body: body, header: header, footer: footer,
            skipLabel: escape(strings["skipToCards"]), emptyMessage: escape(strings["emptyFeed"]),
            paginationStart: "<nav class=\"pagination\" aria-label=\"\(escape(strings["paginationLabel"]))\">\n",
            newer: escape(strings["newer"]), older: escape(strings["older"]), pageWord: escape(strings["page"]))
    }

    /// The page around its cards: the page is `before`, then each card followed by a newline,
    /// then `after` (for a page without cards, `after` holds the empty-feed message). `shared`
    /// is `feedParts` of the page's feed. Appended piece by piece, without interpolation: a
    /// paginated site has thousands of pages.
    func frame(_ view: PageView, hasCards: Bool, shared: FeedParts? = nil) -> (before: String, after: String) {
        let shared = shared ?? feedParts(view)
        return (before(view, shared), after(view.pagination, hasCards: hasCards, shared))
    }

    /// A page's text before its cards.
    func before(_ view: PageView, _ shared: FeedParts) -> String {
        var before = ""
        before.reserveCapacity(shared.head.utf8.count + shared.body.utf8.count + shared.header.utf8.count + 512)
        before += shared.head
        before += "<title>"
        before += escape(view.title)
        before += "</title>\n"
        before += shared.body
        before += "<a class=\"skip-link\" href=\""
        before += escape(view.path)
        before += "#cards\">"
        before += shared.skipLabel
        before += "</a>\n"
        before += shared.header
        before += "<p class=\"feed__count\">"
        before += escape(view.feed.countText)
        before += "</p>\n</div>\n<div class=\"feed__cards\" id=\"cards\">\n"
        return before
    }

    /// A page's text after its cards.
    func after(_ pagination: PaginationView?, hasCards: Bool, _ shared: FeedParts) -> String {
        var after = ""
        after.reserveCapacity(shared.footer.utf8.count + 1536)
        if !hasCards {
            after += "<p class=\"feed__empty\">"
            after += shared.emptyMessage
            after += "</p>\n"
        }
        after += "</div>\n"
        writePagination(pagination, shared, into: &after)
        after += shared.footer
        return after
    }

    /// The `before` of a paginated feed's pages from the second on, which differ only in the
    /// page's number (in the title, the skip link and the card count): written once, for one
    /// page, split at its number and joined with each page's, rather than written page by page.
    /// Checked against two other pages written whole; nil when they differ (the number also
    /// stands elsewhere, in the site's title, say) or the feed has too few pages to check.
    struct NumberedBefore: Sendable {
        private let pieces: [String]

        init?(pageCount: Int, before: (_ page: Int) -> String) {
            guard pageCount >= 4 else { return nil }
            let sample = pageCount - 1
            pieces = before(sample).components(separatedBy: String(sample))
            for page in [2, 3] where self.before(page) != before(page) { return nil }
        }

        func before(_ page: Int) -> String { pieces.joined(separator: String(page)) }
    }

    private func writeNav(_ view: PageView, into out: inout String) {
        let strings = view.settings.strings
        out += "<nav class=\"feed-nav\" aria-label=\"\(escape(strings["navLabel"]))\">\n<ul class=\"feed-nav__list\">\n"
        for item in view.nav {
            out += "<li><a class=\"feed-nav__link\" href=\"\(escape(item.href))\"\(item.current ? " aria-current=\"page\"" : "")>"
            out += "<span class=\"feed-nav__name\">\(escape(item.title))</span> <span class=\"feed-nav__count\">\(item.count)"
            out += "<span class=\"visually-hidden\"> \(escape(item.countNoun))</span></span></a></li>\n"
        }
        out += "</ul>\n</nav>\n"
    }

    private func writePagination(_ pagination: PaginationView?, _ shared: FeedParts, into out: inout String) {
        guard let pagination else { return }
        out += shared.paginationStart
        if let previous = pagination.previous {
            out += "<a class=\"pagination__step\" href=\""
            out += escape(previous)
            out += "\" rel=\"prev\">← "
            out += shared.newer
            out += "</a>\n"
        }
        out += "<ol class=\"pagination__pages\">\n"
        for link in pagination.pages {
            out += link.gap ? "<li class=\"pagination__gap\"><a href=\"" : "<li><a href=\""
            out += escape(link.href)
            out += link.current ? "\" aria-current=\"page\"><span class=\"visually-hidden\">" : "\"><span class=\"visually-hidden\">"
            out += shared.pageWord
            out += " </span>"
            out += String(link.number)
            out += "</a></li>\n"
        }
        out += "</ol>\n"
        if let next = pagination.next {
            out += "<a class=\"pagination__step\" href=\""
            out += escape(next)
            out += "\" rel=\"next\">"
            out += shared.older
            out += " →</a>\n"
        }
        out += "</nav>\n"
    }

    /// A computed value of the page view, as the template sees it.
    private func text(_ view: PageView, _ key: PageView.Key) -> String {
        (view.child(named: key.rawValue) as? Text)?.value ?? ""
    }

    private func escape(_ text: String) -> String { FastHTMLContentType().escapeText(text) }
}
