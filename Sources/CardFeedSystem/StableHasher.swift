/// Values fed one after another into a hash that is the same in every process (`StableHash`):
/// the build cache's keys for what a build makes once a card. Each value goes in with its length
/// (text) or a fixed width, and an optional with a flag, so that no two different sequences of
/// values give the same bytes.
///
/// Fed by hand, field by field, where the compiler's `Encodable` would do the same at a tenth
/// of the speed (`CanonicalEncoder`: 14 µs a card, against 1 µs); a test holds each such list
/// to its type (an edit of any field must change the hash: `ReuseKeyTests`).
package struct StableHasher {
    private var bytes: [UInt8] = []

    package init() {
        bytes.reserveCapacity(2048)
    }

    /// The hash of the values `feed` puts in a new hasher.
    package static func hash(_ feed: (inout StableHasher) -> Void) -> Int {
        var hasher = StableHasher()
        feed(&hasher)
        return hasher.finalize()
    }

    package mutating func combine(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            combine(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    package mutating func combine(_ value: UInt64) {
        bytes.append(littleEndian: value)
    }

    package mutating func combine(_ value: Int64) { combine(UInt64(bitPattern: value)) }
    package mutating func combine(_ value: Int) { combine(Int64(value)) }
    package mutating func combine(_ value: Bool) { bytes.append(value ? 1 : 0) }
    package mutating func combine(_ value: Double) { combine(value.bitPattern) }

    package mutating func combine(_ value: [UInt8]) {
        combine(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// An optional: a flag, then the value if there is one.
    package mutating func combine<Wrapped>(_ value: Wrapped?, _ combine: (inout StableHasher, Wrapped) -> Void) {
        self.combine(value != nil)
        if let value { combine(&self, value) }
    }

    package mutating func combine(_ value: String?) { combine(value) { $0.combine($1) } }
    package mutating func combine(_ value: Int64?) { combine(value) { $0.combine($1) } }
    package mutating func combine(_ value: Int?) { combine(value) { $0.combine($1) } }
    package mutating func combine(_ value: Double?) { combine(value) { $0.combine($1) } }

    /// A list: its count, then each element as `combine` feeds it.
    package mutating func combine<Element>(_ list: some Collection<Element>, _ combine: (inout StableHasher, Element) -> Void) {
        self.combine(list.count)
        for element in list { combine(&self, element) }
    }

    package mutating func combine(_ list: [Int]) { combine(list) { $0.combine($1) } }
    package mutating func combine(_ list: [String]) { combine(list) { $0.combine($1) } }

    package func finalize() -> Int {
        Int(truncatingIfNeeded: StableHash.of(bytes: bytes))
    }
}
