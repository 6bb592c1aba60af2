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

    struct Record: Encodable {
        var name: String
        var count: Int
        var small: UInt8 = 0
        var ratio: Double?
        var inner: [Inner] = []
        struct Inner: Encodable { var a: String; var b: Int64 }
    }

    @Test func everyFieldAndItsPlaceCounts() {
        let base = Record(name: "a", count: 1, inner: [.init(a: "x", b: 2)])
        var variants = [base]
        variants.append({ var r = base; r.name = "b"; return r }())
        variants.append({ var r = base; r.count = 2; return r }())
        variants.append({ var r = base; r.small = 1; return r }())
        variants.append({ var r = base; r.ratio = 0; return r }())
        variants.append({ var r = base; r.inner = []; return r }())
        variants.append({ var r = base; r.inner = [.init(a: "x", b: 2), .init(a: "", b: 0)]; return r }())
        variants.append({ var r = base; r.inner[0].b = 3; return r }())
        let hashes = variants.map { StableHash.of($0) }
        #expect(Set(hashes).count == variants.count)
        #expect(StableHash.of(base) == StableHash.of(Record(name: "a", count: 1, inner: [.init(a: "x", b: 2)])))
    }

    @Test func nestingIsNotConfusedWithSiblings() {
        // ["ab"], ["a", "b"] and [["a"], "b"]-like shapes: lengths and depths tell them apart.
        #expect(StableHash.of(["ab"]) != StableHash.of(["a", "b"]))
        #expect(StableHash.of([["a"], ["b"]]) != StableHash.of([["a", "b"]]))
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
