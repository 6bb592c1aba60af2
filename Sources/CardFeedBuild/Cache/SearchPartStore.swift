import Foundation
import CardFeedSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The parts of the search index as the last build made them, kept in the build cache
/// (`search-parts/`), each with the key it was made from (see `SearchParts`): a build whose
/// output does not have a part as it was (a CI job's new output, made from a restored cache)
/// takes the part from here instead of running Pagefind over its cards again.
///
/// Part N's files are in `part-N/` at their paths in the index's folder, and `part-N.manifest`
/// names its key and each file's size and checksum. Nothing is trusted: a part is taken only when
/// every file it names is there with its size and checksum (a restored CI cache has new inodes
/// and times, so a stamp would not do). Where the cache and the output are on one file system
/// the files are hard links to the output's, and take no room of their own.
struct SearchPartStore {
    let folder: URL

    private static let header = "cardfeed search part"

    private func files(_ number: Int) -> URL { folder.appendingPathComponent("part-\(number + 1)", isDirectory: true) }
    private func manifest(_ number: Int) -> URL { folder.appendingPathComponent("part-\(number + 1).manifest") }

    /// Part `number`'s files by their paths in the index's folder, when the store has them as
    /// made from `key`, every one as it was written; else nil.
    func part(_ number: Int, key: Int) -> [String: Data]? {
        guard let entries = read(manifest(number), key: key) else { return nil }
        let base = files(number)
        let found = Parallel.map(count: entries.count, chunk: 256) { index -> Data? in
            let entry = entries[index]
            let data = try? Data(contentsOf: base.appendingPathComponent(entry.path))
            return data.flatMap { $0.count == entry.size && StableHash.of(bytes: [UInt8]($0)) == entry.checksum ? $0 : nil }
        }
        var part: [String: Data] = [:]
        for (entry, data) in zip(entries, found) {
            guard let data else { return nil }
            part[entry.path] = data
        }
        return part
    }

    /// Keeps each part of `parts` (by number: its key and its files' paths in the index's
    /// folder `index`) that the store does not have as made from that key, or that the build
    /// `madeAgain` (the store's may be damaged), and forgets the parts the index no longer has.
    /// A part that cannot be kept is left out (the next build makes it).
    func keep(_ parts: [Int: (key: Int, files: [String])], madeAgain: Set<Int>, from index: URL) {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // What no part of the index has, and what a build stopped while writing a manifest left.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            let number = name.hasPrefix("part-") && !name.hasSuffix(".partial") ? Int(name.dropFirst(5).prefix { $0.isNumber }).map { $0 - 1 } : nil
            if number.map({ parts[$0] == nil }) ?? true { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        }
        for (number, part) in parts.sorted(by: { $0.key < $1.key }) where madeAgain.contains(number) || read(manifest(number), key: part.key) == nil {
            try? FileManager.default.removeItem(at: manifest(number))
            try? FileManager.default.removeItem(at: files(number))
            guard let entries = copy(part.files, from: index, into: files(number)) else {
                try? FileManager.default.removeItem(at: files(number))
                continue
            }
            let text = ([Self.header, String(part.key)] + entries.map { "\(String($0.checksum, radix: 16)) \($0.size) \($0.path)" }).joined(separator: "\n") + "\n"
            let partial = folder.appendingPathComponent("part-\(number + 1).manifest.partial")
            do {
                try Data(text.utf8).write(to: partial)
                guard rename(partial.path, manifest(number).path) == 0 else { throw POSIXError(.EIO) }
            } catch {
                try? FileManager.default.removeItem(at: partial)
                try? FileManager.default.removeItem(at: files(number))
            }
        }
    }

    private struct Entry {
        var checksum: UInt64
        var size: Int
        var path: String
    }

    /// The entries of `file` when it is a manifest of `key`.
    private func read(_ file: URL, key: Int) -> [Entry]? {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 3, lines[0] == Self.header, lines[1] == String(key), lines.last == "" else { return nil }
        var entries: [Entry] = []
        for line in lines.dropFirst(2).dropLast() {
            let fields = line.split(separator: " ", maxSplits: 2)
            guard fields.count == 3, let checksum = UInt64(fields[0], radix: 16), let size = Int(fields[1]),
                  !fields[2].hasPrefix("/"), !fields[2].split(separator: "/").contains("..") else { return nil }
            entries.append(Entry(checksum: checksum, size: size, path: String(fields[2])))
        }
        return entries
    }

    /// `paths` of `index` put in `folder` (hard links where they can be, else copies), each with
    /// its size and checksum; nil when one cannot be.
    private func copy(_ paths: [String], from index: URL, into folder: URL) -> [Entry]? {
        var entries: [Entry] = []
        for path in paths.sorted() {
            let source = index.appendingPathComponent(path), target = folder.appendingPathComponent(path)
            guard let data = try? Data(contentsOf: source) else { return nil }
            do {
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                if link(source.path, target.path) != 0 { try data.write(to: target) }
            } catch {
                return nil
            }
            entries.append(Entry(checksum: StableHash.of(bytes: [UInt8](data)), size: data.count, path: path))
        }
        return entries
    }
}
