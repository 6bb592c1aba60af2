import Foundation
import CardFeedSystem

/// Puts the parts of a Pagefind 1.5 index that it writes in a random order into a fixed one, so
/// that the same pages give the same index, byte for byte.
///
/// Pagefind 1.5.2 keeps a filter's values (`feed`: `all`, `news`, …), the filters and the sort
/// keys in hash maps seeded at random, and writes them in the maps' order. The filter file,
/// named by the hash of its content, then differs from one run to the next, and so do the
/// metadata file, which lists the filters and sort keys and names the filter file, and
/// `pagefind-entry.json`, which names the metadata file and, for a site in several languages,
/// lists the languages in a hash map's order too. Nothing else does. Pagefind's own fix
/// (#1124, after 1.5.2) sorts each by name before writing it; this does the same to the files it
/// wrote, and names them as Pagefind would have: the language and the first digits of the SHA-1
/// of the content.
///
/// The filter and metadata files are written anew (gzipped by zlib) even when they were in
/// order already: Pagefind's gzip and zlib's give different bytes for the same content, and a
/// file left as Pagefind wrote it only when chance put it in order would differ between builds.
///
/// The files are gzipped CBOR (RFC 8949, definite lengths, as minicbor writes them) after the 12
/// bytes `pagefind_dcd`. Elements are moved whole, so nothing CardFeed does not need to read is
/// decoded.
enum PagefindIndexOrder {
    /// What went wrong, in words for the build's error.
    struct Problem: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static let signature = Array("pagefind_dcd".utf8)

    /// Rewrites the index in `bundle` (Pagefind's output folder) in place. Returns how many
    /// files it renamed, their content put in order (0 for an index in order already).
    @discardableResult
    static func apply(bundle: URL) throws(Problem) -> Int {
        let renamed = try orderFilterFiles(in: bundle.appendingPathComponent("filter", isDirectory: true))
        let entryFile = bundle.appendingPathComponent("pagefind-entry.json")
        guard let written = try? String(contentsOf: entryFile, encoding: .utf8) else { throw Problem("pagefind-entry.json is missing") }
        var entry = written
        var metadataRenamed = 0
        for name in files(in: bundle, prefix: "pagefind.", suffix: ".pf_meta") {
            guard let (old, new) = try orderMetadata(bundle.appendingPathComponent(name), renamed: renamed) else { continue }
            guard entry.components(separatedBy: "\"\(old)\"").count == 2 else { throw Problem("pagefind-entry.json does not name \(name) once") }
            entry = entry.replacingOccurrences(of: "\"\(old)\"", with: "\"\(new)\"")
            metadataRenamed += 1
        }
        entry = try orderLanguages(entry)
        if entry != written {
            do { try Data(entry.utf8).write(to: entryFile) } catch { throw Problem("cannot write pagefind-entry.json: \(error.localizedDescription)") }
        }
        return renamed.count + metadataRenamed
    }

    /// The languages of `pagefind-entry.json` sorted by name; the text as it was for an index of
    /// one language. They are `"languages":{"en":{…},"de":{…}}`, each language's an object of
    /// plain values (no braces inside), so the list is cut where one object ends.
    static func orderLanguages(_ entry: String) throws(Problem) -> String {
        guard let start = entry.range(of: "\"languages\":{")?.upperBound, let end = entry[start...].range(of: "}}")?.lowerBound else {
            throw Problem("pagefind-entry.json does not list its languages as Pagefind 1.5 does")
        }
        let languages = entry[start...end].components(separatedBy: "},").map { $0.hasSuffix("}") ? $0 : $0 + "}" }
        return entry[..<start] + languages.sorted().joined(separator: ",") + entry[entry.index(after: end)...]
    }

    /// Sorts each filter file's values by name, and renames the files that changed. Returns the
    /// new names by the old (file names without `.pf_filter`).
    private static func orderFilterFiles(in folder: URL) throws(Problem) -> [String: String] {
        let names = files(in: folder, prefix: "", suffix: ".pf_filter").map { String($0.dropLast(".pf_filter".count)) }
        var taken = Set(names)
        var renamed: [String: String] = [:]
        for old in names {
            let file = folder.appendingPathComponent(old + ".pf_filter")
            var body = try read(file)
            // [filter name, [[value, [page, …]], …]]
            var reader = CBORReader(body)
            guard try reader.arrayCount() == 2 else { throw Problem("filter/\(old).pf_filter is not a filter index") }
            try reader.skip()
            let start = reader.position
            var new = old
            if let values = try reader.reorderArray() {
                body.replaceSubrange(start..<reader.position, with: values)
                new = try filterName(for: body, replacing: old, taken: &taken)
                renamed[old] = new
            }
            try write(body, to: folder.appendingPathComponent(new + ".pf_filter"))
            if new != old { try? FileManager.default.removeItem(at: file) }
        }
        return renamed
    }

    /// Sorts the metadata file's filters and sort keys by name and gives each filter its file's
    /// new name (see `orderFilterFiles`). When that changed it, it is renamed: returns its old
    /// name and the new (without `pagefind.` and `.pf_meta`); else nil.
    private static func orderMetadata(_ file: URL, renamed: [String: String]) throws(Problem) -> (old: String, new: String)? {
        var body = try read(file)
        var changed = false
        // [version, pages, index chunks, filters: [[name, file], …], sorts: [[name, pages], …], meta fields]
        var reader = CBORReader(body)
        guard try reader.arrayCount() >= 5 else { throw Problem("\(file.lastPathComponent) is not a Pagefind 1 metadata index") }
        for _ in 0..<3 { try reader.skip() }
        let filtersStart = reader.position
        if let filters = try reader.reorderArray() {
            body.replaceSubrange(filtersStart..<reader.position, with: filters)
            changed = true
        }
        reader = CBORReader(body, at: filtersStart)
        // How much longer `body` is than what `reader` reads, where a new name is longer.
        var shift = 0
        for _ in 0..<(try reader.arrayCount()) {
            guard try reader.arrayCount() == 2 else { throw Problem("\(file.lastPathComponent) has a filter that is not [name, file]") }
            try reader.skip()
            let start = reader.position
            guard let new = renamed[try reader.text()] else { continue }
            let item = CBORReader.textItem(new)
            body.replaceSubrange(start + shift..<reader.position + shift, with: item)
            shift += item.count - (reader.position - start)
            changed = true
        }
        let sortsStart = reader.position + shift
        reader = CBORReader(body, at: sortsStart)
        if let sorts = try reader.reorderArray() {
            body.replaceSubrange(sortsStart..<reader.position, with: sorts)
            changed = true
        }
        let old = String(file.lastPathComponent.dropFirst("pagefind.".count).dropLast(".pf_meta".count))
        guard changed else {
            try write(body, to: file)
            return nil
        }
        let language = String(old[..<(old.lastIndex(of: "_") ?? old.startIndex)])
        // As Pagefind names it: the language, then the hash's first (language's length + 8) digits.
        let new = language + "_" + SHA1.pagefindHex(body).prefix(language.count + 8)
        try write(body, to: file.deletingLastPathComponent().appendingPathComponent("pagefind.\(new).pf_meta"))
        if new != old { try? FileManager.default.removeItem(at: file) }
        return (old, new)
    }

    /// The name Pagefind gives a filter file: its language, then as many digits of the hash of
    /// its content as the old name had (7, or more where Pagefind lengthened one to tell two
    /// apart), lengthened here too if another filter file has it.
    private static func filterName(for body: [UInt8], replacing old: String, taken: inout Set<String>) throws(Problem) -> String {
        guard let underscore = old.lastIndex(of: "_") else { throw Problem("filter/\(old).pf_filter is not named as Pagefind names them") }
        let language = String(old[..<underscore])
        let hash = SHA1.pagefindHex(body)
        for length in old.distance(from: underscore, to: old.endIndex) - 1...hash.count {
            let name = language + "_" + hash.prefix(length)
            if name == old || !taken.contains(name) {
                taken.remove(old)
                taken.insert(name)
                return name
            }
        }
        throw Problem("two of Pagefind's filter files have the same content")
    }

    /// The names in `folder` with `prefix` and `suffix`, sorted.
    private static func files(in folder: URL, prefix: String, suffix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) }.sorted()
    }

    /// A file's CBOR, without its signature.
    private static func read(_ file: URL) throws(Problem) -> [UInt8] {
        guard let data = try? Data(contentsOf: file) else { throw Problem("cannot read \(file.lastPathComponent)") }
        guard let bytes = Gzip.decompress([UInt8](data)), bytes.starts(with: signature) else {
            throw Problem("\(file.lastPathComponent) is not a Pagefind index file")
        }
        return Array(bytes.dropFirst(signature.count))
    }

    /// Writes `body` as Pagefind does: the signature and the CBOR, gzipped at the best compression.
    private static func write(_ body: [UInt8], to file: URL) throws(Problem) {
        do { try Data(Gzip.compress(signature + body)).write(to: file) } catch { throw Problem("cannot write \(file.lastPathComponent): \(error.localizedDescription)") }
    }
}

/// Reads CBOR items one after another: only what `PagefindIndexOrder` needs (arrays, text,
/// and skipping any definite-length item).
struct CBORReader {
    let bytes: [UInt8]
    private(set) var position: Int

    init(_ bytes: [UInt8], at position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    /// The next item's major type and argument.
    private mutating func head() throws(PagefindIndexOrder.Problem) -> (major: UInt8, argument: UInt64) {
        guard position < bytes.count else { throw .init("a Pagefind index file ends early") }
        let first = bytes[position]
        position += 1
        let major = first >> 5, info = first & 0x1f
        switch info {
        case 0..<24: return (major, UInt64(info))
        case 24...27:
            let length = 1 << Int(info - 24)
            guard position + length <= bytes.count else { throw .init("a Pagefind index file ends early") }
            var value: UInt64 = 0
            for byte in bytes[position..<position + length] { value = value << 8 | UInt64(byte) }
            position += length
            return (major, value)
        default: throw .init("a Pagefind index file has CBOR CardFeed cannot read (additional information \(info))")
        }
    }

    /// A text item of `text`, as minicbor writes one: its length in the head's 5 bits, or in
    /// the byte after (the names here are far shorter than 256 bytes).
    static func textItem(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        precondition(bytes.count < 256)
        return (bytes.count < 24 ? [0x60 | UInt8(bytes.count)] : [0x78, UInt8(bytes.count)]) + bytes
    }

    mutating func arrayCount() throws(PagefindIndexOrder.Problem) -> Int {
        let (major, count) = try head()
        guard major == 4, count <= UInt64(bytes.count) else { throw .init("a Pagefind index file has something else where an array should be") }
        return Int(count)
    }

    /// A text item's bytes, as a string.
    mutating func text() throws(PagefindIndexOrder.Problem) -> String {
        let (major, length) = try head()
        guard major == 3, length <= UInt64(bytes.count - position) else { throw .init("a Pagefind index file has something else where text should be") }
        defer { position += Int(length) }
        return String(decoding: bytes[position..<position + Int(length)], as: UTF8.self)
    }

    /// Moves past the next item, whatever it is.
    mutating func skip() throws(PagefindIndexOrder.Problem) {
        let (major, argument) = try head()
        switch major {
        case 0, 1, 7: return
        case 2, 3:
            guard argument <= UInt64(bytes.count - position) else { throw .init("a Pagefind index file ends early") }
            position += Int(argument)
        case 4:
            for _ in 0..<argument { try skip() }
        case 5:
            for _ in 0..<argument { try skip(); try skip() }
        case 6: try skip()
        default: throw .init("a Pagefind index file has CBOR CardFeed cannot read")
        }
    }

    /// Reads the array at the position, whose elements are arrays that each start with a
    /// name (a filter value's, a filter's, a sort key's), and moves past it. When the elements
    /// are not in the order of their names (as UTF-8 bytes, as Rust orders strings), returns the
    /// array's bytes with the elements in that order, each moved whole; nil when they are.
    mutating func reorderArray() throws(PagefindIndexOrder.Problem) -> [UInt8]? {
        let start = position
        let count = try arrayCount()
        let headEnd = position
        var elements: [(name: [UInt8], bytes: ArraySlice<UInt8>)] = []
        elements.reserveCapacity(count)
        for _ in 0..<count {
            let elementStart = position
            guard try arrayCount() >= 1 else { throw .init("a Pagefind index file has an empty array where a named one should be") }
            let name = Array(try text().utf8)
            position = elementStart
            try skip()
            elements.append((name, bytes[elementStart..<position]))
        }
        let sorted = elements.sorted { $0.name.lexicographicallyPrecedes($1.name) }
        guard !sorted.map(\.name).elementsEqual(elements.map(\.name)) else { return nil }
        return Array(bytes[start..<headEnd]) + sorted.flatMap(\.bytes)
    }
}

/// SHA-1 (FIPS 180-4), for file names only: Pagefind names its files by the SHA-1 of their
/// content. Not for anything that needs a secure hash.
enum SHA1 {
    /// The digest as Pagefind prints it (Rust's `{:x?}` of each byte): lowercase hexadecimal
    /// without leading zeros, so that 0x0a is "a".
    static func pagefindHex(_ message: [UInt8]) -> String {
        digest(message).map { String($0, radix: 16) }.joined()
    }

    static func digest(_ message: [UInt8]) -> [UInt8] {
        var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
        var padded = message
        padded.append(0x80)
        while padded.count % 64 != 56 { padded.append(0) }
        let bits = UInt64(message.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) { padded.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        var w = [UInt32](repeating: 0, count: 80)
        for block in stride(from: 0, to: padded.count, by: 64) {
            for i in 0..<16 {
                let b = block + i * 4
                w[i] = UInt32(padded[b]) << 24 | UInt32(padded[b + 1]) << 16 | UInt32(padded[b + 2]) << 8 | UInt32(padded[b + 3])
            }
            for i in 16..<80 {
                let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                w[i] = x << 1 | x >> 31
            }
            var (a, b, c, d, e) = h
            for i in 0..<80 {
                let f: UInt32, k: UInt32
                switch i {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let t = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
                (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, t)
            }
            h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
        }
        return [h.0, h.1, h.2, h.3, h.4].flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) } }
    }
}
