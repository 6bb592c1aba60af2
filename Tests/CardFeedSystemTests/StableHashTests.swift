import Testing
@testable import CardFeedSystem

/// The build cache names what it keeps by these hashes, across processes: they must be XXH3's
/// own (values from the `xxhash` Python package, the reference implementation's binding), never
/// Swift's per-process `Hasher`.
struct StableHashTests {
    @Test func bytesHashAsXXH3Does() {
        #expect(StableHash.of(bytes: []) == 0x2d06_8005_38d3_94c2)
        #expect(StableHash.of(bytes: Array("abc".utf8)) == 0x78af_5f94_892f_3950)
        #expect(StableHash.of(bytes: Array((0..<5).flatMap { _ in (0...255).map(UInt8.init) })) == 0x4844_b009_e164_352e)
    }

    /// Parts hashed one after another hash as the bytes they make joined, at any cut (XXH3's
    /// streaming state takes its input in stripes and blocks: parts on either side of them).
    @Test func partsHashAsTheirBytesJoined() {
        let bytes = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        for cuts in [[], [0], [1], [64, 65], [240, 1024, 1025], [4999], [5000], [0, 5000]] {
            let bounds = [0] + cuts + [bytes.count]
            let parts = zip(bounds, bounds.dropFirst()).map { Array(bytes[$0..<$1]) }
            #expect(StableHash.of(parts: parts) == StableHash.of(bytes: bytes), "cut at \(cuts)")
        }
        #expect(StableHash.of(parts: []) == StableHash.of(bytes: []))
    }

    /// A key feeds the same kinds of values in the same order every time (its type's fields):
    /// within that order, no two different values give the same bytes.
    @Test func valuesInTheSameOrderAreToldApartByTheirLengthsAndFlags() {
        func hash(_ first: String?, _ second: String, _ third: Int?) -> Int {
            var hasher = StableHasher()
            hasher.combine(first)
            hasher.combine(second)
            hasher.combine(third)
            return hasher.finalize()
        }
        let values: [(String?, String, Int?)] = [
            (nil, "", nil), ("", "", nil), (nil, "", 0), ("ab", "c", nil), ("a", "bc", nil), (nil, "a", nil), ("a", "", nil), ("", "a", 1),
        ]
        let hashes = values.map { hash($0.0, $0.1, $0.2) }
        #expect(Set(hashes).count == values.count)
        #expect(hash("ab", "c", nil) == hashes[3])
    }

    /// A hasher's hash is XXH3's of the bytes it was fed, lengths and flags included, past the
    /// room it starts with too.
    @Test func aHasherHashesTheBytesItWasFed() {
        let long = String(repeating: "é", count: 3000)
        var hasher = StableHasher()
        hasher.combine("ab")
        hasher.combine(true)
        hasher.combine(long)
        hasher.combine(Int?.none)
        var bytes: [UInt8] = []
        bytes.append(littleEndian: 2)
        bytes += Array("ab".utf8) + [1]
        bytes.append(littleEndian: UInt64(long.utf8.count))
        bytes += Array(long.utf8) + [0]
        #expect(hasher.finalize() == Int(truncatingIfNeeded: StableHash.of(bytes: bytes)))
    }

    /// An entry of a card file is hashed where it lies, seeded with its file's key: only its
    /// own bytes count, and another seed is another hash.
    @Test func aRangeIsHashedWithItsSeedAndNothingAroundIt() {
        let one = Array("[{\"id\":\"a\"},{\"id\":\"b\"}]".utf8)
        let other = Array("xx{\"id\":\"a\"}yyyyyy".utf8)
        one.withByteView { first in
            other.withByteView { second in
                #expect(StableHash.of(first, 1..<11, seed: 7) == StableHash.of(second, 2..<12, seed: 7))
                #expect(StableHash.of(first, 1..<11, seed: 7) != StableHash.of(first, 1..<11, seed: 8))
                #expect(StableHash.of(first, 1..<11, seed: 7) != StableHash.of(first, 12..<22, seed: 7))
            }
        }
    }

    enum Shade: Equatable { case light, dark }
    struct Settings { var words: [String: String]; var shade: Shade; var tags: Set<String> }

    @Test func reflectingReadsEveryFieldWhateverTheDictionarysOrder() {
        let one = Settings(words: Dictionary(uniqueKeysWithValues: (0..<50).map { ("k\($0)", "v\($0)") }), shade: .light, tags: ["x", "y", "z"])
        var other = Settings(words: [:], shade: .light, tags: ["z", "y", "x"])
        for index in (0..<50).reversed() { other.words["k\(index)"] = "v\(index)" }
        #expect(StableHash.reflecting(one) == StableHash.reflecting(other))
        other.shade = .dark
        #expect(StableHash.reflecting(one) != StableHash.reflecting(other))
        other.shade = .light
        other.words["k3"] = "changed"
        #expect(StableHash.reflecting(one) != StableHash.reflecting(other))
    }
}

private struct Hidden { var part = Part.one; enum Part { case one } }

extension StableHashTests {
    /// A private type's name carries its place in memory, which another process does not share.
    @Test func aPrivateTypesNameIsReadWithoutItsAddress() {
        let name = CanonicalBytes.typeName(of: [Hidden()])
        #expect(!name.contains("unknown context"), "\(name)")
        #expect(name.hasSuffix("Hidden>"), "\(name)")
    }
}
