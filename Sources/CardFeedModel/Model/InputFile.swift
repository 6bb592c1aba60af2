import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads one file of the site, after making sure it is a regular file that can be opened: a
/// folder, a named pipe (whose read would wait forever), a device (`/dev/zero` never ends), a
/// socket, a broken or looping symbolic link and a file without read permission each get a
/// sentence that says which, instead of Foundation's "The operation could not be completed".
package enum InputFile {
    package struct Problem: Error, CustomStringConvertible {
        package var description: String
    }

    /// What kind of thing is at `path`, following links; nil for a regular file.
    static func problem(at path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            var link = stat()
            if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
                if code == ELOOP { return "is a symbolic link that leads round in a loop" }
                if code == ENOENT || code == ENOTDIR { return "is a symbolic link to \(Diagnostic.quoted(linkTarget(path))), which does not exist" }
            }
            if code == EACCES { return "cannot be read: permission denied (check the permissions of its folders)" }
            if code == ENOENT { return "does not exist" }
            return "cannot be read: \(String(cString: strerror(code)))"
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "is a folder, not a file"
        case S_IFIFO: return "is a named pipe (FIFO), not a file (reading it could wait forever)"
        case S_IFCHR, S_IFBLK: return "is a device, not a file"
        case S_IFSOCK: return "is a socket, not a file"
        default: return "is not a regular file"
        }
    }

    /// The file's bytes (mapped when `mapped` and the system allows it).
    package static func read(_ url: URL, mapped: Bool = false) throws(Problem) -> Data {
        if let problem = problem(at: url.path) { throw Problem(description: problem) }
        // Open it once ourselves: Foundation words a refused open as a generic failure.
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            if code == EACCES || code == EPERM { throw Problem(description: "cannot be read: permission denied") }
            throw Problem(description: "cannot be read: \(String(cString: strerror(code)))")
        }
        close(descriptor)
        do {
            return try Data(contentsOf: url, options: mapped ? .mappedIfSafe : [])
        } catch {
            throw Problem(description: "cannot be read: \(error.localizedDescription)")
        }
    }

    /// Where a symbolic link points, as written in it.
    static func linkTarget(_ path: String) -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
    }
}
