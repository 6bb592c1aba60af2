import Synchronization
import CardFeedSystem

/// The files a build put into its new output, by path, with what `holds` learnt of each page:
/// the key it was made from, and whether it was kept as it was. Both cores record a file every
/// few microseconds; under one lock they waited on each other (4% of a rebuild's samples at
/// 100,000 cards), so the paths are split into shards, each with its own lock.
final class OutputFiles: Sendable {
    struct Entry {
        /// In the new output (a page `holds` was asked about may be made and closed later).
        var isFile = false
        /// The key the page was made from (`holds`), nil for other files.
        var key: Int?
        /// Kept as the previous build left it.
        var held = false
        /// Written anew, not the old output's file (see `OutputTransaction.keep(oldOutput:)`).
        var made = false
        /// Its file's stamp, when the build knows it (a page held, or one it wrote).
        var stamp: FileStamp?
    }

    private final class Shard: Sendable {
        let entries = Mutex<[String: Entry]>([:])
    }

    private let shards = (0..<64).map { _ in Shard() }
    let written = Atomic<Int>(0)
    let linked = Atomic<Int>(0)

    /// The shard of `path`, by its last bytes (a page's name ends in what tells it apart).
    private func shard(_ path: String) -> Shard {
        var hash: UInt = 0
        for byte in path.utf8.suffix(12) { hash = hash &* 31 &+ UInt(byte) }
        return shards[Int(hash % UInt(shards.count))]
    }

    /// Room for about `count` files, made before the build records them: growing the shards
    /// as 117,000 pages come took a tenth of `holds`' time.
    func reserve(_ count: Int) {
        for shard in shards { shard.entries.withLock { $0.reserveCapacity(count / shards.count + count / (4 * shards.count)) } }
    }

    func update(_ path: String, _ change: (inout Entry) -> Void) {
        shard(path).entries.withLock { change(&$0[path, default: Entry()]) }
    }

    /// What `transform` makes of each entry (nil: nothing), in no order, a shard at a time on
    /// both cores.
    func compactMap<Result: Sendable>(_ transform: @Sendable (_ path: String, _ entry: Entry) -> Result?) -> [Result] {
        Parallel.map(count: shards.count, chunk: 1) { [shards] number in
            shards[number].entries.withLock { $0.compactMap { transform($0.key, $0.value) } }
        }.flatMap { $0 }
    }

    /// The paths of the files the build wrote anew.
    var made: [String] {
        shards.flatMap { shard in shard.entries.withLock { $0.compactMap { $0.value.made ? $0.key : nil } } }
    }

    /// Whether the new output has a file at `path`.
    func hasFile(_ path: String) -> Bool {
        shard(path).entries.withLock { $0[path]?.isFile == true }
    }

    /// The paths of the files in the new output that `include` takes, in no order.
    func paths(where include: @Sendable (String) -> Bool) -> [String] {
        compactMap { path, entry in entry.isFile && include(path) ? path : nil }
    }
}
