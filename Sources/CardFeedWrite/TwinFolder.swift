import CardFeedSystem

/// A build cache's copy of the output before last (the twin, see `OutputTransaction`), walked on
/// a thread of its own from the moment it is made: at 117,000 files the walk takes a tenth of a
/// second, which the build spends reading its cards meanwhile. It is made by the build that holds
/// the cache's lock, and nothing but that build's output transaction changes the twin.
package final class TwinFolder: Sendable {
    package let path: String
    private let walked: Background<Walk>

    struct Walk: Sendable {
        var tree: FolderTree
        /// The files' inodes, and the folders, by path.
        var inodes: [String: UInt64]
        var folders: Set<String>
    }

    package init(path: String) {
        self.path = path
        walked = Background {
            let tree = FolderTree(path, statEachFile: !FolderTree.readdirInodesAreStats(path))
            return Walk(tree: tree, inodes: Dictionary(tree.files, uniquingKeysWith: { first, _ in first }), folders: Set(tree.folders))
        }
    }

    /// The files and folders it held when it was made: the first to ask may wait for the walk.
    var walk: Walk { walked.value }
}
