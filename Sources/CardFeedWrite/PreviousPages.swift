import CardFeedModel
import CardFeedSystem

/// The pages the previous build with a cache left in the output, with the keys they were made
/// from, and which of them are still as it left them (see `OutputTransaction.holds`).
///
/// Their files' stamps are read on a thread of its own from the moment this is made, while the
/// build checks and selects its cards on one core: at 117,000 pages, reading them, and looking
/// each up in the twin, took a fifth of a second of both cores once the build asked.
package final class PreviousPages: Sendable {
    /// By path, relative to the output.
    package let pages: [String: KeptPage]
    private let checked: Background<Checked>

    private struct Checked: Sendable {
        /// The pages whose file is not as the previous build left it: edited, replaced, removed,
        /// or in an output that is not a folder. (A few, or none, after a build.)
        var touched: Set<String>
        /// The pages whose file the twin does not share with the output (`OutputTransaction`):
        /// those the last build wrote anew, and any the twin lost. Nil without a twin.
        var apartFromTwin: Set<String>?
    }

    /// `output`: the output folder's real path; `twin`: the cache's twin of it, if any.
    package init(_ pages: [String: KeptPage], output: String, twin: TwinFolder?) {
        self.pages = pages
        checked = Background {
            let folder = SystemCalls.openFolder(output)
            defer { if folder >= 0 { SystemCalls.close(folder) } }
            let inodes = twin?.walk.inodes
            var checked = Checked(touched: [], apartFromTwin: inodes.map { _ in [] })
            for (path, page) in pages {
                if folder < 0 || FileStamp(in: folder, path) != page.stamp { checked.touched.insert(path) }
                if let inodes, inodes[path] != page.stamp.inode { checked.apartFromTwin?.insert(path) }
            }
            return checked
        }
    }

    /// Whether the file of the page at `path` (one of `pages`) is as the previous build left it.
    package func isUntouched(_ path: String) -> Bool {
        !checked.value.touched.contains(path)
    }

    /// Whether the twin holds the output's own file for the page at `path` (one of `pages`):
    /// the same inode the previous build left there. False without a twin.
    package func twinShares(_ path: String) -> Bool {
        guard let apart = checked.value.apartFromTwin else { return false }
        return !apart.contains(path)
    }
}
