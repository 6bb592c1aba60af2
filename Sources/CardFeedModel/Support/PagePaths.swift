import Foundation

/// Where each page of each feed, and each card's own page, lives, relative to the site root.
package enum PagePaths {
    /// A feed's front page, its newest cards: "index.html", "news/index.html". Links name the
    /// file, so that the site also works opened from disk (file://).
    package static func front(_ feed: Feed) -> String { front(folder: feed.folder) }

    /// The front page of a feed's `folder` ("" for the first feed's).
    package static func front(folder: String) -> String { folder.isEmpty ? "index.html" : folder + "/index.html" }

    /// An archive page's file, named after the card that ends it (its newest), whose anchor is
    /// `anchor`: "news/page-summer-sale.html" for `card-summer-sale`. The page keeps the name
    /// for as long as that card ends it, whatever newer cards arrive. A feed's pages share its
    /// folder: a folder per page would double the file system work of writing a paginated site,
    /// and creating a folder costs as much as rendering many cards.
    package static func archive(folder: String, endingWith anchor: String) -> String {
        (folder.isEmpty ? "" : folder + "/") + "page-" + archiveName(anchor) + ".html"
    }

    /// The anchor without its "card-", every capital letter written "~" and the small one, so
    /// that two anchors that differ only in case ("card-Sale", "card-sale") name two files
    /// on a file system that does not tell case (macOS's and Windows' by default) too. An
    /// anchor holds only ASCII letters, digits, "-" and "_", so no other name has a "~", and
    /// unique anchors give unique names.
    static func archiveName(_ anchor: String) -> String {
        let name = anchor.hasPrefix("card-") ? anchor.utf8.dropFirst(5) : anchor.utf8[...]
        guard name.contains(where: isCapital) else { return String(Substring(name)) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.count * 2)
        for byte in name {
            if isCapital(byte) {
                bytes += [UInt8(ascii: "~"), byte + 32]
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isCapital(_ byte: UInt8) -> Bool { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) }

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

    /// A page's path as the site's address names it, for absolute URLs (canonical links, the
    /// sitemap, the feeds): a folder's `index.html` is the folder itself, which every web server
    /// serves, so that the address people share is the one search engines are given
    /// ("news/index.html" -> "news/", "index.html#card-x" -> "#card-x"). Links between pages keep
    /// naming the file (`front`, `archive`), which works from disk too.
    package static func served(_ path: String) -> String {
        let end = path.utf8.firstIndex(of: UInt8(ascii: "#")) ?? path.endIndex
        let file = path[..<end]
        guard file == "index.html" || file.hasSuffix("/index.html") else { return path }
        return String(file.dropLast("index.html".count) + path[end...])
    }

    /// The relative path from the folder of a feed's pages back to the site root ("./", "../").
    package static func root(feed: Feed) -> String { root(of: front(feed)) }

    /// The relative path from the folder of the page at `path` back to the site root.
    package static func root(of path: String) -> String {
        let depth = path.utf8.lazy.filter { $0 == UInt8(ascii: "/") }.count
        return depth == 0 ? "./" : String(repeating: "../", count: depth)
    }

    /// The folder of the card pages: one for all of them, since a folder a page costs more to
    /// create than the page (see `archive(folder:endingWith:)`).
    package static let cardPagesFolder = "cards"

    /// The folder of the search index, at the site's root (`search: true`).
    package static let searchIndexFolder = "pagefind"

    /// The folder of a tree's placements (`placements:`): "embed" at the root, "de/embed".
    package static let placementsFolder = "embed"

    /// A card's own page, named by its anchor (`ShownCards.anchor(at:)`): "cards/card-x.html".
    /// An anchor is a safe file name on every file system: letters, digits, "-" and "_", at most
    /// some 80 of them, unique among the cards shown (ignoring case, with card pages), and it
    /// begins with "card-", so that no card is named as Windows names a device (`con`, `nul`).
    /// Unlike an archive page's (`fileName`), the name keeps the anchor's capitals as they are:
    /// it is the address people share, and the ids Braze makes are mostly capitals.
    package static func cardPage(anchor: String) -> String { cardPagesFolder + "/" + anchor + ".html" }

    /// A card's own page in the language tree whose folder is `tree` ("de/cards/card-x.html").
    package static func cardPage(anchor: String, tree: String) -> String {
        tree.isEmpty ? cardPage(anchor: anchor) : tree + "/" + cardPage(anchor: anchor)
    }

    /// The folder of the card pages of the language tree whose folder is `tree`.
    package static func cardPagesFolder(tree: String) -> String { tree.isEmpty ? cardPagesFolder : tree + "/" + cardPagesFolder }
}
