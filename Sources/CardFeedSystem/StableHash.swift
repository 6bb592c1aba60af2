import CXXHash
import Synchronization

/// A 64-bit hash that is the same in every process (XXH3 with its default secret), for what a
/// build keeps for the next one: Swift's `Hasher` is seeded anew in each process, so its
/// `hashValue` cannot name a value across builds.
package enum StableHash {
    /// The hash of `bytes`.
    package static func of(bytes: [UInt8]) -> UInt64 {
        // The header compiled in (XXH_INLINE_ALL) names its functions XXH_INLINE_*. The array is
        // passed as the C function's `const void *`, which points at it for the call alone.
        XXH_INLINE_XXH3_64bits(bytes, bytes.count)
    }

    package static func of(bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBufferPointer { XXH_INLINE_XXH3_64bits($0.baseAddress, $0.count) }
    }

    /// The hash of `parts` one after another: what `of(bytes:)` gives for them joined, without
    /// copying them into one array (the build cache's index, some 18 MB, is written in parts).
    package static func of(parts: [[UInt8]]) -> UInt64 {
        guard let state = XXH_INLINE_XXH3_createState() else { return of(bytes: Array(parts.joined())) }
        defer { XXH_INLINE_XXH3_freeState(state) }
        XXH_INLINE_XXH3_64bits_reset(state)
        for part in parts { _ = part.withUnsafeBytes { XXH_INLINE_XXH3_64bits_update(state, $0.baseAddress, $0.count) } }
        return XXH_INLINE_XXH3_64bits_digest(state)
    }

    /// The hash of the bytes of `range` in `view`, with XXH3's `seed`: another seed, another
    /// hash of the same bytes.
    package static func of(_ view: ByteView, _ range: Range<Int>, seed: UInt64) -> UInt64 {
        let bytes = view.slice(range).base
        return XXH_INLINE_XXH3_64bits_withSeed(bytes.baseAddress, bytes.count, seed)
    }
}

extension StableHash {
    /// The hash of `value` read through its `Mirror`: every stored field, whatever the type
    /// declares, a dictionary's or a set's entries whatever their order. Slower than `of`, for
    /// values a build hashes once (its settings), not once a card.
    package static func reflecting(_ value: Any) -> Int {
        let bytes = CanonicalBytes()
        bytes.reflect(value, depth: 0)
        return Int(truncatingIfNeeded: of(bytes: bytes.finish()))
    }
}

extension CanonicalBytes {
    func reflect(_ value: Any, depth: UInt8) {
        switch value {
        case let string as String:
            mark(.string, depth)
            append(string)
        case let number as Double:
            mark(.double, depth)
            append(number.bitPattern)
        case let flag as Bool:
            mark(flag ? .yes : .no, depth)
        case let integer as any BinaryInteger:
            mark(.integer, depth)
            append(String(describing: integer))
        case let integers as [Int]:
            // A feed's cards, by the thousand: their bytes, not a mirror of each.
            mark(.unkeyed, depth)
            append(UInt64(integers.count))
            append(memoryOf: integers)
        default:
            let mirror = Mirror(reflecting: value)
            mark(.keyed, depth)
            append(Self.typeName(of: value))
            switch mirror.displayStyle {
            case .dictionary?, .set?:
                // Each entry on its own, then in the order of their bytes: a process's order is its own.
                let entries = mirror.children.map { child in
                    let entry = CanonicalBytes()
                    entry.reflect(child.value, depth: 0)
                    return entry.finish()
                }
                for entry in entries.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                    mark(.element, depth &+ 1)
                    append(UInt64(entry.count))
                    append(bytes: entry)
                }
            case .enum? where mirror.children.isEmpty:
                // A case without a payload: its name, which the mirror does not give.
                mark(.key, depth &+ 1)
                append((value as? any RawRepresentable).map { String(describing: $0.rawValue) } ?? String(describing: value))
            default:
                var mirror: Mirror? = mirror
                while let current = mirror {
                    for child in current.children {
                        mark(.key, depth &+ 1)
                        append(child.label ?? "")
                        reflect(child.value, depth: depth &+ 2)
                    }
                    mirror = current.superclassMirror
                }
            }
        }
    }
}

/// The bytes `StableHash.reflecting` hashes: each value with a mark and its depth in the whole
/// before it, so that no two different values give the same bytes.
final class CanonicalBytes {
    enum Mark: UInt8 {
        case keyed = 1, unkeyed, key, element, yes, no, string, double, integer
    }

    private var storage: [UInt8] = []

    init() {
        storage.reserveCapacity(1024)
    }

    func mark(_ mark: Mark, _ depth: UInt8) {
        storage.append(mark.rawValue)
        storage.append(depth)
    }

    /// A string as its length and its UTF-8.
    func append(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            append(UInt64(utf8.count))
            storage.append(contentsOf: utf8)
        }
    }

    func append(_ value: UInt64) {
        storage.append(littleEndian: value)
    }

    /// The value's type, qualified by its module, without what names a private type's place in
    /// memory ("(unknown context at $5632...)"), which changes from process to process.
    static func typeName(of value: Any) -> String {
        let type = ObjectIdentifier(type(of: value))
        if let name = typeNames.withLock({ $0[type] }) { return name }
        let name = cleanName(String(reflecting: Swift.type(of: value)))
        typeNames.withLock { $0[type] = name }
        return name
    }

    /// Each type's name as `typeName` gives it, worked out once a type: a build's settings
    /// hold thousands of values of a few types (each feed's pages), and the name is slow to clean.
    private static let typeNames = Mutex<[ObjectIdentifier: String]>([:])

    private static func cleanName(_ reflected: String) -> String {
        var name = Substring(reflected)
        var cleaned = ""
        while let start = name.range(of: "(unknown context at $") {
            cleaned += name[..<start.lowerBound]
            name = name[start.upperBound...].drop { $0 != ")" }.dropFirst()
            if cleaned.hasSuffix(".") == false, name.first == "." { name = name.dropFirst() }
        }
        return cleaned + name
    }

    func append(bytes: [UInt8]) {
        storage.append(contentsOf: bytes)
    }

    func append(memoryOf integers: [Int]) {
        storage.append(memoryOf: integers)
    }

    func finish() -> [UInt8] { storage }
}
