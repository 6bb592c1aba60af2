import CardFeedModel
import CardFeedSystem

/// How a site's search index is cut into parts, each a Pagefind index of its own, which the
/// search box merges into the first (see `SearchIndex`).
///
/// A card's search document goes into the part that the hash of its page's path picks, so a
/// card stays in its part from build to build, whatever cards come or go around it: with a
/// build cache, a change to one card changes one part, and only that part is indexed again (see
/// `SearchIndex.make`). A site has as many parts as parts of at most `size` cards on average
/// take, rounded up to a power of two (parts of `size` / 2 to `size` cards on average), so that
/// the number changes only when the site doubles or halves: when it does, every part is made
/// again (a count that followed every `size` cards had a site of 100,000 cards, its parts of
/// 4,000, index every part again for one card added).
///
/// The first part, the index the search box starts from, has a card of every language: a tree
/// none of whose cards fell into it gives it the card whose path hashes lowest, so that every
/// language's box finds its language there (see `SearchIndex.partLanguages`).
struct SearchParts: Sendable, Equatable {
    /// Each part's documents ("de/cards/card-x.html"), sorted; only a part after the first may
    /// be empty.
    let pages: [[String]]
    /// Each part's trees (indexes into the trees the documents were given by), in order.
    let trees: [[Int]]

    /// `documents`: each tree's documents.
    init(_ documents: [[String]], size: Int) {
        let total = documents.reduce(0) { $0 + $1.count }
        let needed = max(1, (total + size - 1) / size)
        let count = 1 << (Int.bitWidth - (needed - 1).leadingZeroBitCount)
        var pages = [[String]](repeating: [], count: count)
        var trees = [Set<Int>](repeating: [], count: count)
        for (tree, paths) in documents.enumerated() {
            let hashes = paths.map { StableHash.of(bytes: Array($0.utf8)) }
            var parts = hashes.map { Int($0 % UInt64(count)) }
            if !parts.isEmpty, !parts.contains(0), let lowest = hashes.indices.min(by: { hashes[$0] < hashes[$1] }) {
                parts[lowest] = 0
            }
            for (path, part) in zip(paths, parts) {
                pages[part].append(path)
                trees[part].insert(tree)
            }
        }
        self.pages = pages.map { $0.sorted() }
        self.trees = trees.map { $0.sorted() }
    }

    var count: Int { pages.count }

    /// The parts that have documents, by number (0 for the first).
    var numbers: [Int] { pages.indices.filter { !pages[$0].isEmpty } }

    /// Where part `number`'s index goes, relative to the index's folder: the first's files are
    /// the folder's own, part N's (counted from 1) are in `part-N/`.
    static func folder(_ number: Int) -> String { number == 0 ? "" : "part-\(number + 1)/" }

    /// The part whose file `path` (relative to the index's folder) is; nil for a file of the
    /// whole index (`SearchIndex.partsFile`).
    static func number(ofFile path: String) -> Int? {
        if path == SearchIndex.partsFile { return nil }
        guard path.hasPrefix("part-"), let slash = path.firstIndex(of: "/"),
              let number = Int(path[path.index(path.startIndex, offsetBy: 5)..<slash]), number > 1 else { return 0 }
        return number - 1
    }

    /// Each part's key, with a build cache: the hash of its documents' paths and keys (each its
    /// card page's, which the document is made of, see `RenderKeys.cardPages`), how many parts
    /// there are, and `index` (the Pagefind that makes it and what it is told); nil when a
    /// document has no key.
    func keys(documents keys: [String: Int], index: [String]) -> [Int]? {
        var made: [Int] = []
        for (number, part) in pages.enumerated() {
            var hasher = StableHasher()
            hasher.combine(index)
            hasher.combine(count)
            hasher.combine(number)
            hasher.combine(part.count)
            for path in part {
                guard let key = keys[path] else { return nil }
                hasher.combine(path)
                hasher.combine(key)
            }
            made.append(hasher.finalize())
        }
        return made
    }

    /// The key of a file of a part's index: its part's, and its path in the index's folder.
    static func key(ofFile path: String, partKey: Int) -> Int {
        StableHasher.hash { $0.combine(partKey); $0.combine(path) }
    }
}
