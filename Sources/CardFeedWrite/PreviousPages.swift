import CardFeedModel
import CardFeedSystem

/// The pages the previous build with a cache left in the output, with the keys they were made
/// from, and which of them are still as it left them (see `OutputTransaction.holds`): each
/// page's stamp read once, as the output is opened.
struct PreviousPages: Sendable {
    /// By path, relative to the output.
    let pages: [String: KeptPage]
    /// The pages whose file is not as the previous build left it: edited, replaced, removed, or
    /// in an output that is not a folder. (A few, or none, after a build.)
    private let touched: Set<String>

    /// None.
    init() {
        pages = [:]
        touched = []
    }

    /// `output`: the output's path, and `folder` the output open (-1 when it cannot be opened:
    /// then each page's path is followed from the root).
    init(_ pages: [String: KeptPage], output: String, in folder: Int32) {
        self.pages = pages
        var touched: Set<String> = []
        for (path, page) in pages {
            let stamp = folder >= 0 ? FileStamp(in: folder, path) : FileStamp(path: output + "/" + path)
            if stamp != page.stamp { touched.insert(path) }
        }
        self.touched = touched
    }

    /// Whether the file of the page at `path` (one of `pages`) is as the previous build left it.
    func isUntouched(_ path: String) -> Bool {
        !touched.contains(path)
    }
}
