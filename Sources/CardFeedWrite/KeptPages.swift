#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a file of the output was when a build wrote (or kept) it: its inode and device, size
/// and modification time. The same stamp later means the file was not touched since; a file
/// edited, replaced or copied in between has another.
package struct FileStamp: Sendable, Hashable {
    package var device: UInt64
    package var inode: UInt64
    package var size: Int64
    package var modified: Int64
    package var modifiedNanoseconds: Int64

    package init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, modifiedNanoseconds: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.modifiedNanoseconds = modifiedNanoseconds
    }

    /// The stamp of the regular file at `path` in the folder open as `folder` (never following a
    /// symbolic link); nil for anything else, or nothing. A path from an open folder is walked
    /// from there, not from the root: a tenth less time over 117,000 pages.
    package init?(in folder: Int32, _ path: String) {
        var status = stat()
        guard fstatat(folder, path, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        self.init(status)
    }

    /// The stamp of the regular file at `path`; nil for anything else, or nothing.
    package init?(path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    /// The stamp of the open file `descriptor`, if it is a regular file.
    init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(status)
    }

    private init?(_ status: stat) {
        guard (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        #if canImport(Glibc)
        let time = status.st_mtim
        #else
        let time = status.st_mtimespec
        #endif
        self.init(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
            modified: Int64(time.tv_sec), modifiedNanoseconds: Int64(time.tv_nsec))
    }
}

/// A page of the output as a build with a cache left it: the key it was made from (see
/// `OutputTarget.holds`) and its file's stamp then.
package struct KeptPage: Sendable, Equatable {
    package var key: Int
    package var stamp: FileStamp

    package init(key: Int, stamp: FileStamp) {
        self.key = key
        self.stamp = stamp
    }
}
