import CFileSwap
import CardFeedSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every file and folder below a folder, read with `readdir`, whose entries say which are
/// folders and give each file's inode: nothing is `stat`ed but on a file system that does not
/// say (a walk of an output of 117,000 files took a `stat` each before). Symbolic links are
/// files here, never followed.
struct FolderTree {
    /// Whether `readdir`'s inodes are `stat`'s on the file system of `path`: not on overlayfs
    /// (containers' usual root), whose `readdir` may give the lower layer's numbers.
    static func readdirInodesAreStats(_ path: String) -> Bool {
        cardfeed_readdir_inodes_are_stats(path) == 1
    }

    /// Relative paths ("/"-separated) of the files, with their inodes.
    var files: [(path: String, inode: UInt64)] = []
    /// Relative paths of the folders, each after the folder it is in.
    var folders: [String] = []

    /// The tree below `root`, leaving out each entry `skip` names (given its relative path and
    /// its folder's), and everything below a folder it names. A folder that cannot be read is
    /// taken as empty. `statEachFile`: the inodes are `lstat`'s, not `readdir`'s (see
    /// `readdirInodesAreStats`).
    init(_ root: String, statEachFile: Bool = false, skip: (_ path: String, _ name: String, _ folder: String) -> Bool = { _, _, _ in false }) {
        var pending = [""]
        while let relative = pending.popLast() {
            let folder = relative.isEmpty ? root : root + "/" + relative
            for entry in SystemCalls.entries(of: folder) ?? [] {
                let name = entry.text
                if name == "." || name == ".." { continue }
                let path = relative.isEmpty ? name : relative + "/" + name
                if skip(path, name, relative) { continue }
                var isFolder = entry.isFolder
                if entry.kindUnknown {
                    var status = stat()
                    isFolder = lstat(folder + "/" + name, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
                }
                if isFolder {
                    folders.append(path)
                    pending.append(path)
                } else if statEachFile {
                    var status = stat()
                    files.append((path, lstat(folder + "/" + name, &status) == 0 ? UInt64(status.st_ino) : 0))
                } else {
                    files.append((path, entry.inode))
                }
            }
        }
    }
}
