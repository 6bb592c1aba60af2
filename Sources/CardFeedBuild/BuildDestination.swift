import Foundation
import CardFeedWrite

/// Where a build's pages and files go, chosen by the command that runs it. The build streams
/// its pages into the destination's output as they render and commits it once everything is
/// written; a failed build leaves it as it was.
public enum BuildDestination: Sendable {
    /// A folder replaced as a whole when the build succeeds (`cardfeed build`; see
    /// `OutputTransaction`).
    case folder(URL)
    /// A folder updated file by file, writing only what changed since the last build into it
    /// (`cardfeed serve`); with search, the card pages' search documents go into a folder of
    /// their own, updated the same way (see `CardPages`), which the index reads.
    case inPlace(InPlaceOutput, searchDocuments: InPlaceOutput? = nil)
    /// Every file kept in memory (the fuzz probe, tests).
    case memory(MemoryOutput)
    /// Every page and file made and none kept (`cardfeed check`, which so meets every error a
    /// build would).
    case discarded

    /// Whether a build into it uses a cache on disk (`BuildOptions.cache`): a folder's, and
    /// `check`'s (its cards only); serve keeps its caches in memory.
    var keepsCache: Bool {
        switch self {
        case .folder, .discarded: true
        case .inPlace, .memory: false
        }
    }

    /// The folder that is written to, nil when none is.
    public var folder: URL? {
        switch self {
        case .folder(let folder): folder
        case .inPlace(let output, _): output.folder
        case .memory, .discarded: nil
        }
    }
}
