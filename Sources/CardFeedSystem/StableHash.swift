import CXXHash

/// A 64-bit hash that is the same in every process (XXH3 with its default secret), for what a
/// build keeps for the next one: Swift's `Hasher` is seeded anew in each process, so its
/// `hashValue` cannot name a value across builds.
package enum StableHash {
    /// The hash of `bytes`.
    package static func of(bytes: [UInt8]) -> UInt64 {
        // The header compiled in (XXH_INLINE_ALL) names its functions XXH_INLINE_*.
        bytes.withUnsafeBufferPointer { XXH_INLINE_XXH3_64bits($0.baseAddress, $0.count) }
    }

    /// The hash of `value`'s every stored field, in the order its `Encodable` conformance gives
    /// them (the compiler's, for the types the cache keys are made of, so that a field added is
    /// never left out of its key). A dictionary's entries count whatever their order.
    package static func of(_ value: some Encodable) -> Int {
        var encoder = CanonicalEncoder()
        // Only a conformance written by hand can throw, and those of the keys' types do not.
        try! value.encode(to: encoder)
        return Int(truncatingIfNeeded: of(bytes: encoder.bytes.finish()))
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
        default:
            let mirror = Mirror(reflecting: value)
            mark(.keyed, depth)
            append(String(reflecting: type(of: value)))
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
