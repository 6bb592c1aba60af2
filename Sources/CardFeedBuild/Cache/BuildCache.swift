import Foundation
import Synchronization
import CardFeedModel
import CardFeedRender
import CardFeedSystem
import CardFeedWrite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a build keeps on disk for the next one, in its cache folder (`BuildCacheFolder`): the
/// cards it rendered, by their keys (`CardRenderKey`), and the pages it wrote, each with the key
/// it was made from and its file's stamp (`KeptPage`). The next build takes a card whose key
/// is the same rather than rendering it, and leaves a page whose key is the same, and whose file
/// nobody touched, as it is; keys hash everything a card or page is made of, so a cached build
/// writes what a build without the cache writes, byte for byte.
///
/// One file, `build-cache.bin`, replaced whole by a rename once the output is in place, and
/// checked whole (a checksum) before it is used: a cache that was cut short, damaged, written by
/// another CardFeed (another program file, even of the same version) or for another site or
/// output is not used, and the build says why in one note. A lock (`flock`) keeps a second build
/// out of the folder while one uses it: the second goes on without a cache.
final class BuildCache: Sendable {
    let folder: BuildCacheFolder
    /// What the previous build kept.
    let cards: [Int: RenderedCard]
    let pages: [String: KeptPage]
    /// What the file says it is for: the format, the program, the site and the output.
    private let identity: [String]
    private let lock: CacheLock

    static let fileName = "build-cache.bin"
    private static let magic = Array("CardFeed build cache\n".utf8)
    private static let format = "format 1"

    private init(folder: BuildCacheFolder, identity: [String], lock: CacheLock, cards: [Int: RenderedCard], pages: [String: KeptPage]) {
        self.folder = folder
        self.identity = identity
        self.lock = lock
        self.cards = cards
        self.pages = pages
    }

    /// The cache in `folder` for a build of `site` into `output`, created if need be; nil when
    /// the folder cannot hold one or another build holds it. The note says why a cache was not
    /// used, or could not be.
    static func open(_ folder: BuildCacheFolder, site: URL, output: URL) -> (cache: BuildCache?, note: String?) {
        let shown = SiteFolder.display(folder.url)
        let lock: CacheLock
        do {
            try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
            let tag = folder.url.appendingPathComponent(BuildCacheFolder.tagName)
            if !folder.isTagged { try Data(BuildCacheFolder.tagText.utf8).write(to: tag) }
            guard let locked = try CacheLock(path: folder.url.appendingPathComponent("lock").path) else {
                return (nil, "another build is using the cache in \(shown), so this one goes on without it")
            }
            lock = locked
        } catch {
            return (nil, "cannot keep a build cache in \(shown) (\(Self.reason(error))), so the build goes on without one")
        }
        removeLeftovers(in: folder.url)
        let identity = [format, "cardfeed \(CardFeedVersion.current)", "program \(programStamp())", "site \(SiteFolder.realPath(site))", "output \(SiteFolder.realPath(output))"]
        let file = folder.url.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: file.path) else {
            return (BuildCache(folder: folder, identity: identity, lock: lock, cards: [:], pages: [:]), nil)
        }
        let empty = BuildCache(folder: folder, identity: identity, lock: lock, cards: [:], pages: [:])
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try InputFile.read(file))
        } catch {
            return (empty, "cannot read the build cache \(shown)/\(fileName) (\(error)), so everything is made again")
        }
        switch read(bytes, for: identity) {
        case .success(let (cards, pages)):
            return (BuildCache(folder: folder, identity: identity, lock: lock, cards: cards, pages: pages), nil)
        case .failure(let problem):
            return (empty, "the build cache \(shown)/\(fileName) \(problem.description), so everything is made again")
        }
    }

    /// Replaces the cache with what this build used: its cards and its pages, each page with
    /// its file's stamp in `output` (read now that the output is in place). Returns a note when
    /// it cannot (the build has succeeded all the same; the next one makes everything again).
    func save(cards: [Int: RenderedCard], pageKeys: [String: Int], output: URL) -> String? {
        let paths = pageKeys.keys.sorted()
        let root = SiteFolder.realPath(output)
        let stamps = ConcurrentResults<FileStamp?>(count: paths.count)
        let chunk = 1024
        Parallel.perform(iterations: (paths.count + chunk - 1) / chunk) { index in
            for position in index * chunk..<min(paths.count, (index + 1) * chunk) {
                stamps.set(position, FileStamp(path: root + "/" + paths[position]))
            }
        }
        var writer = BinaryWriter(capacity: cards.values.reduce(0) { $0 + $1.html.count + 64 } + paths.count * 96 + 4096)
        writer.write(identity.count)
        identity.forEach { writer.write($0) }
        writer.write(cards.count)
        for (key, card) in cards.sorted(by: { $0.key < $1.key }) {
            writer.write(key)
            writer.write(card.html)
            writer.write(card.description)
            writer.write(card.words)
        }
        let kept = zip(paths, stamps.values).compactMap { path, stamp in stamp.map { (path, pageKeys[path]!, $0) } }
        writer.write(kept.count)
        for (path, key, stamp) in kept {
            writer.write(path)
            writer.write(key)
            for value in [Int64(bitPattern: stamp.device), Int64(bitPattern: stamp.inode), stamp.size, stamp.modified, stamp.modifiedNanoseconds] {
                writer.write(Int(value))
            }
        }
        var body = writer.bytes
        let checksum = StableHash.of(bytes: body)
        var trailer = BinaryWriter()
        trailer.write(checksum)
        body.append(contentsOf: trailer.bytes)
        let file = folder.url.appendingPathComponent(Self.fileName)
        // Written beside it, then put in its place in one rename: a build stopped meanwhile
        // leaves the previous cache whole (and the next build removes the part written).
        let partial = folder.url.appendingPathComponent("\(Self.fileName).\(getpid()).partial")
        do {
            try Data(Self.magic + body).write(to: partial)
            guard rename(partial.path, file.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            return nil
        } catch {
            try? FileManager.default.removeItem(at: partial)
            return "cannot keep the build cache in \(SiteFolder.display(folder.url)) (\(Self.reason(error))); the next build makes everything again"
        }
    }

    /// Lets go of the cache: another build may use it from now.
    func release() { lock.release() }

    private struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    private static func read(_ bytes: [UInt8], for identity: [String]) -> Result<([Int: RenderedCard], [String: KeptPage]), Problem> {
        guard bytes.count >= magic.count + 8, Array(bytes[..<magic.count]) == magic else { return .failure(Problem(description: "is not a CardFeed build cache")) }
        let body = Array(bytes[magic.count..<(bytes.count - 8)])
        var trailer = BinaryReader(Array(bytes[(bytes.count - 8)...]))
        guard let checksum = try? trailer.uint64(), checksum == StableHash.of(bytes: body) else {
            return .failure(Problem(description: "is damaged or was cut short"))
        }
        var reader = BinaryReader(body)
        do throws(BinaryReader.Truncated) {
            let count = try reader.int()
            var written: [String] = []
            for _ in 0..<max(0, min(count, 16)) { written.append(try reader.string()) }
            if written != identity {
                let differs = zip(written, identity).first { $0 != $1 }
                let what: String = switch differs?.1.split(separator: " ").first {
                case "cardfeed"?, "program"?, "format"?: "was made by another CardFeed (\(differs!.0)), not this one (\(differs!.1))"
                case "site"?: "was made for another site (\(differs!.0.dropFirst("site ".count)))"
                case "output"?: "was made for another output folder (\(differs!.0.dropFirst("output ".count)))"
                default: "is not one this CardFeed reads"
                }
                return .failure(Problem(description: what))
            }
            var cards: [Int: RenderedCard] = [:]
            let cardCount = try reader.int()
            cards.reserveCapacity(max(0, cardCount))
            for _ in 0..<max(0, cardCount) {
                let key = try reader.int()
                cards[key] = RenderedCard(html: try reader.byteArray(), description: try reader.optionalString(), words: try reader.optionalString())
            }
            var pages: [String: KeptPage] = [:]
            let pageCount = try reader.int()
            pages.reserveCapacity(max(0, pageCount))
            for _ in 0..<max(0, pageCount) {
                let path = try reader.string()
                let key = try reader.int()
                let stamp = FileStamp(
                    device: UInt64(bitPattern: Int64(try reader.int())), inode: UInt64(bitPattern: Int64(try reader.int())),
                    size: Int64(try reader.int()), modified: Int64(try reader.int()), modifiedNanoseconds: Int64(try reader.int()))
                pages[path] = KeptPage(key: key, stamp: stamp)
            }
            guard reader.atEnd else { return .failure(Problem(description: "is damaged")) }
            return .success((cards, pages))
        } catch {
            return .failure(Problem(description: "is damaged or was cut short"))
        }
    }

    /// The running program's file, as its size and time: a program built again (a new commit of
    /// CardFeed, its version unchanged) may render the same card otherwise, so its cache is not used.
    private static func programStamp() -> String {
        guard let path = Pagefind.runningExecutable(), let stamp = FileStamp(path: path) else { return "unknown" }
        return "\(stamp.size) \(stamp.modified).\(stamp.modifiedNanoseconds)"
    }

    /// What a build stopped while writing the cache left: removed by the next one, holding the lock.
    private static func removeLeftovers(in folder: URL) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix(fileName + ".") && name.hasSuffix(".partial") {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    private static func reason(_ error: any Error) -> String {
        if let error = error as? CocoaError, let underlying = error.underlying as? POSIXError { return String(cString: strerror(underlying.code.rawValue)) }
        if let error = error as? POSIXError { return String(cString: strerror(error.code.rawValue)) }
        return error.localizedDescription
    }
}

/// The lock on a cache folder: `flock` on a file in it, which the kernel releases when the
/// process ends, however it ends.
private final class CacheLock: Sendable {
    private let descriptor: Mutex<Int32>

    /// Nil when another process holds it.
    init?(path: String) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK { return nil }
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        self.descriptor = Mutex(descriptor)
    }

    func release() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            close(descriptor)
            descriptor = -1
        }
    }

    deinit { release() }
}
