import Foundation
import CZlib

/// Puts the parts of a Pagefind 1.5 index that it writes in a random order into a fixed one, so
/// that the same pages give the same index, byte for byte.
///
/// Pagefind 1.5.2 keeps a filter's values (`feed`: `news`, `offers`, …), the filters and the
/// sort keys in hash maps seeded at random, and writes them in the maps' order: the filter
/// file, whose name is a hash of its content, then differs from one run to the next, and so do
/// the metadata file that names it and `pagefind-entry.json`, which names that. Everything else
/// (words, pages, fragments, the sort's page order) comes out the same. Pagefind's own fix
/// (#1124, after 1.5.2: each sorted by name before it is written) is what this does to the
/// files it wrote: each filter's values, the filters and the sort keys sorted by name (as bytes,
/// as Rust orders strings); the filter file then renamed by the hash of its new content, the
/// way Pagefind names it (SHA-1, as Pagefind prints it); the metadata file given that name and
/// renamed by its own new hash; the entry file given that. An index already in order (a
/// Pagefind with the fix) is left exactly as it is.
///
/// The files are CBOR (RFC 8949, definite lengths, as minicbor writes them) after the 12 bytes
/// `pagefind_dcd`, gzipped; the order is changed by moving each element's bytes whole, so
/// nothing CardFeed does not need to understand is decoded.
enum PagefindIndexOrder {
    /// What went wrong, in words for the build's error.
    struct Problem: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static let signature = Array("pagefind_dcd".utf8)

    /// Rewrites the index in `bundle` (Pagefind's output folder) in place. Returns how many
    /// files it changed (0 for an index already in order).
    @discardableResult
    static func apply(bundle: URL) throws(Problem) -> Int {
        let manager = FileManager.default
        let filterFolder = bundle.appendingPathComponent("filter", isDirectory: true)
        var renamed: [String: String] = [:]  // filter hash (file name without .pf_filter) -> new
        var changed = 0
        let filterNames = ((try? manager.contentsOfDirectory(atPath: filterFolder.path)) ?? []).filter { $0.hasSuffix(".pf_filter") }.sorted()
        var taken = Set(filterNames.map { String($0.dropLast(".pf_filter".count)) })
        for name in filterNames {
            let old = String(name.dropLast(".pf_filter".count))
            let file = filterFolder.appendingPathComponent(name)
            let body = try read(file)
            // [filter name, [[value, [page, …]], …]]
            var reader = CBORReader(body)
            guard try reader.arrayCount() == 2 else { throw Problem("\(name) is not a filter index") }
            try reader.skip()
            let valuesStart = reader.position
            guard let values = try reader.reorderArray(by: firstText) else { continue }
            let reordered = Array(body[..<valuesStart]) + values + Array(body[reader.position...])
            let new = try newName(for: reordered, replacing: old, taken: &taken)
            try write(reordered, to: filterFolder.appendingPathComponent(new + ".pf_filter"))
            try? manager.removeItem(at: file)
            renamed[old] = new
            changed += 1
        }

        let entryFile = bundle.appendingPathComponent("pagefind-entry.json")
        guard var entry = try? String(contentsOf: entryFile, encoding: .utf8) else { throw Problem("pagefind-entry.json is missing") }
        var entryChanged = false
        let metaNames = ((try? manager.contentsOfDirectory(atPath: bundle.path)) ?? []).filter { $0.hasPrefix("pagefind.") && $0.hasSuffix(".pf_meta") }.sorted()
        for name in metaNames {
            let old = String(name.dropFirst("pagefind.".count).dropLast(".pf_meta".count))
            let file = bundle.appendingPathComponent(name)
            var body = try read(file)
            var metaChanged = false
            // [version, pages, index chunks, filters: [[name, hash], …], sorts: [[name, pages], …], meta fields]
            var reader = CBORReader(body)
            guard try reader.arrayCount() >= 5 else { throw Problem("\(name) is not a Pagefind 1 metadata index") }
            for _ in 0..<3 { try reader.skip() }
            let filtersStart = reader.position
            if let filters = try reader.reorderArray(by: firstText) {
                body.replaceSubrange(filtersStart..<filtersStart + filters.count, with: filters)
                metaChanged = true
            }
            reader = CBORReader(body, at: filtersStart)
            // The filters' hashes, each replaced by its file's new name (of the same length).
            let filterCount = try reader.arrayCount()
            for _ in 0..<filterCount {
                _ = try reader.arrayCount()
                try reader.skip()
                let hash = try reader.text()
                guard let new = renamed[hash] else { continue }
                let newBytes = Array(new.utf8)
                guard newBytes.count == hash.utf8.count else { throw Problem("a filter's new name is not as long as its old") }
                body.replaceSubrange(reader.position - newBytes.count..<reader.position, with: newBytes)
                metaChanged = true
            }
            let sortsStart = reader.position
            if let sorts = try reader.reorderArray(by: firstText) {
                body.replaceSubrange(sortsStart..<sortsStart + sorts.count, with: sorts)
                metaChanged = true
            }
            guard metaChanged else { continue }
            let language = old.split(separator: "_").dropLast().joined(separator: "_")
            // As Pagefind names it: the language, then the hash's first (language's length + 8) digits.
            let new = language + "_" + String(SHA1.pagefindHex(body).prefix(language.count + 8))
            try write(body, to: bundle.appendingPathComponent("pagefind.\(new).pf_meta"))
            if new != old { try? manager.removeItem(at: file) }
            guard entry.components(separatedBy: "\"\(old)\"").count == 2 else { throw Problem("pagefind-entry.json does not name \(name) once") }
            entry = entry.replacingOccurrences(of: "\"\(old)\"", with: "\"\(new)\"")
            entryChanged = true
            changed += 1
        }
        if entryChanged {
            do { try Data(entry.utf8).write(to: entryFile) } catch { throw Problem("cannot write pagefind-entry.json: \(error.localizedDescription)") }
            changed += 1
        }
        return changed
    }

    /// The name an element is sorted by: the text its array starts with (a filter value's, a
    /// filter's or a sort key's name).
    private static func firstText(_ element: ArraySlice<UInt8>) throws(Problem) -> String {
        var reader = CBORReader(element)
        guard try reader.arrayCount() >= 1 else { throw Problem("a Pagefind index file has an empty array where a named one should be") }
        return try reader.text()
    }

    /// The name Pagefind gives a filter file: its language, then as many digits of the hash of
    /// its content as the old name had (7, or more where Pagefind lengthened one to tell two
    /// apart), lengthened here too if another filter file has it.
    private static func newName(for body: [UInt8], replacing old: String, taken: inout Set<String>) throws(Problem) -> String {
        guard let underscore = old.lastIndex(of: "_") else { throw Problem("filter/\(old).pf_filter is not named as Pagefind names them") }
        let language = String(old[..<underscore])
        let digits = old.distance(from: old.index(after: underscore), to: old.endIndex)
        let hash = SHA1.pagefindHex(body)
        for length in digits...max(digits, hash.count) {
            let name = language + "_" + String(hash.prefix(length))
            if name == old || !taken.contains(name) {
                taken.remove(old)
                taken.insert(name)
                return name
            }
        }
        throw Problem("two of Pagefind's filter files have the same content")
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

    init(_ bytes: ArraySlice<UInt8>) {
        self.init(Array(bytes))
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

    /// Reads the array at the position and moves past it. When its elements are not in the
    /// order of their keys (by `key`, compared as UTF-8 bytes), returns the array's bytes with
    /// the elements in that order (each element's bytes moved whole, the head kept); nil when
    /// they already are.
    mutating func reorderArray(by key: (ArraySlice<UInt8>) throws(PagefindIndexOrder.Problem) -> String) throws(PagefindIndexOrder.Problem) -> [UInt8]? {
        let start = position
        let count = try arrayCount()
        let headEnd = position
        var elements: [(key: [UInt8], bytes: ArraySlice<UInt8>)] = []
        elements.reserveCapacity(count)
        for _ in 0..<count {
            let elementStart = position
            try skip()
            let slice = bytes[elementStart..<position]
            elements.append((Array(try key(slice).utf8), slice))
        }
        let sorted = elements.sorted { $0.key.lexicographicallyPrecedes($1.key) }
        guard !sorted.map(\.key).elementsEqual(elements.map(\.key)) else { return nil }
        var out = Array(bytes[start..<headEnd])
        out.reserveCapacity(position - start)
        for element in sorted { out += element.bytes }
        return out
    }
}

/// gzip through zlib, as Pagefind writes its files (flate2's `GzEncoder` at `Compression::best`):
/// a header without a name or a time, so the same bytes give the same file.
enum Gzip {
    static func compress(_ input: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        // 15 + 16: a window of 2^15 bytes, and gzip's header and trailer.
        guard deflateInit2_(&stream, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            preconditionFailure("zlib cannot start a gzip stream")
        }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 32)
        var input = input
        let result = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        precondition(result == Z_STREAM_END, "zlib's bound on a gzip stream was too small")
        output.removeLast(Int(stream.avail_out))
        return output
    }

    /// The bytes a gzip stream holds; nil when it is not one.
    static func decompress(_ input: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // 15 + 32: gzip or zlib, told apart by the header.
        guard inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var input = input
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        return input.withUnsafeMutableBufferPointer { source -> [UInt8]? in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            while true {
                let (result, produced) = chunk.withUnsafeMutableBufferPointer { target -> (Int32, Int) in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    let result = inflate(&stream, Z_NO_FLUSH)
                    return (result, target.count - Int(stream.avail_out))
                }
                output += chunk[0..<produced]
                switch result {
                case Z_STREAM_END: return output
                case Z_OK: continue
                default: return nil
                }
            }
        }
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
