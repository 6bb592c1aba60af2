import Foundation

/// Where each page of each feed, and each card's own page, lives, relative to the site root.
package enum PagePaths {
    /// The page's file: "index.html", "news/index.html", "news/page-2.html". A feed's pages
    /// share its folder: a folder per page would double the file system work of writing a
    /// paginated site (creating 14,500 folders for 100,000 cards took longer than rendering).
    package static func file(feed: Feed, page: Int) -> String { file(folder: feed.folder, page: page) }

    /// The page's file in a feed's `folder` ("" for the front page's feed).
    package static func file(folder: String, page: Int) -> String {
        let folder = folder.isEmpty ? "" : folder + "/"
        return page <= 1 ? folder + "index.html" : folder + "page-\(page).html"
    }

    /// The folder of an output file's path ("" for the root's): by its last "/", without the
    /// path parsing of `NSString.deletingLastPathComponent`, since every page asks.
    package static func folder(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[..<slash])
    }

    /// Every folder that `paths` are in, and the folders those are in ("" left out).
    package static func folders(containing paths: some Sequence<String>) -> Set<String> {
        var folders: Set<String> = []
        for path in paths {
            var folder = self.folder(path)
            while !folder.isEmpty, folders.insert(folder).inserted { folder = self.folder(folder) }
        }
        return folders
    }

    /// Links name the file, so that the site also works opened from disk (file://).
    package static func href(feed: Feed, page: Int) -> String { file(feed: feed, page: page) }

    /// A page's path as the site's address names it, for absolute URLs (canonical links, the
    /// sitemap, the feeds): a folder's `index.html` is the folder itself, which every web server
    /// serves, so that the address people share is the one search engines are given
    /// ("news/index.html" -> "news/", "index.html#card-x" -> "#card-x"). Links between pages keep
    /// naming the file (`href`), which works from disk too.
    package static func served(_ path: String) -> String {
        let end = path.utf8.firstIndex(of: UInt8(ascii: "#")) ?? path.endIndex
        let file = path[..<end]
        guard file == "index.html" || file.hasSuffix("/index.html") else { return path }
        return String(file.dropLast("index.html".count) + path[end...])
    }

    /// The relative path from the folder of a feed's pages back to the site root ("./", "../").
    package static func root(feed: Feed) -> String { root(of: file(feed: feed, page: 1)) }

    /// The relative path from the folder of the page at `path` back to the site root.
    package static func root(of path: String) -> String {
        let depth = path.utf8.lazy.filter { $0 == UInt8(ascii: "/") }.count
        return depth == 0 ? "./" : String(repeating: "../", count: depth)
    }

    /// The folder of the card pages: one for all of them, since a folder a page costs more to
    /// create than the page (see `file(feed:page:)`).
    package static let cardPagesFolder = "cards"

    /// A card's own page, named by its anchor (`ShownCards.anchor(at:)`): "cards/card-x.html".
    /// An anchor is a safe file name on every file system: letters, digits, "-" and "_", at most
    /// some 80 of them, unique among the cards shown (ignoring case, with card pages), and it
    /// begins with "card-", so that no card is named as Windows names a device (`con`, `nul`).
    package static func cardPage(anchor: String) -> String { cardPagesFolder + "/" + anchor + ".html" }
}
