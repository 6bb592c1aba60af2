/// Values fed one after another into a hash that is the same in every process (`StableHash`):
/// the build cache's keys for what a build makes once a card. Each value goes in with its length
/// (text) or a fixed width, and an optional with a flag, so that no two different sequences of
/// values give the same bytes.
///
/// Fed by hand, field by field, where the compiler's `Encodable` would do the same at a tenth
/// of the speed (`CanonicalEncoder`: 14 µs a card, against 1 µs); a test holds each such list
/// to its type (an edit of any field must change the hash: `ReuseKeyTests`).
///
/// The bytes are a `BinaryWriter`'s, so that a value the build cache also writes (a card's fields,
/// `Card.Fields.write(fieldsInto:)`) is hashed as it is written, from one list of its fields.
package struct StableHasher {
    private var writer = BinaryWriter(capacity: 2048)

    package init() {}

    /// The hash of the values `feed` puts in a new hasher.
    package static func hash(_ feed: (inout StableHasher) -> Void) -> Int {
        var hasher = StableHasher()
        feed(&hasher)
        return hasher.finalize()
    }

    /// Feeds what `write` writes, as a `BinaryWriter` writes it.
    package mutating func combine(writtenBy write: (inout BinaryWriter) -> Void) {
        write(&writer)
    }

    package mutating func combine(_ value: String) {
        writer.write(value)
    }

    package mutating func combine(_ value: UInt64) {
        writer.write(value)
    }

    package mutating func combine(_ value: Int64) { combine(UInt64(bitPattern: value)) }
    package mutating func combine(_ value: Int) { combine(Int64(value)) }
    package mutating func combine(_ value: Bool) { writer.write(value) }
    package mutating func combine(_ value: Double) { combine(value.bitPattern) }

    package mutating func combine(_ value: [UInt8]) {
        writer.write(value)
    }

    // An optional is a flag, then the value if there is one; a list its count, then each
    // element. Written out for each type keys are made of, not as generic functions: called
    // from another module, those were not specialized, and looked their types' metadata up on
    // every call, hundreds of thousands of times a build.

    package mutating func combine(_ value: String?) {
        combine(value != nil)
        if let value { combine(value) }
    }

    package mutating func combine(_ value: Int64?) {
        combine(value != nil)
        if let value { combine(value) }
    }

    package mutating func combine(_ value: Int?) {
        combine(value != nil)
        if let value { combine(value) }
    }

    package mutating func combine(_ value: Double?) {
        combine(value != nil)
        if let value { combine(value) }
    }

    package mutating func combine(_ list: [Int]) {
        combine(list.count)
        for element in list { combine(element) }
    }

    package mutating func combine(_ list: [String]) {
        combine(list.count)
        for element in list { combine(element) }
    }

    package mutating func combine(_ list: [String?]) {
        combine(list.count)
        for element in list { combine(element) }
    }

    package func finalize() -> Int {
        Self.hash(ofWritten: writer.bytes[...])
    }

    /// The hash of the values whose bytes a `BinaryWriter` wrote as `bytes`: what `hash` gives
    /// for the values fed as that writer was.
    package static func hash(ofWritten bytes: ArraySlice<UInt8>) -> Int {
        Int(truncatingIfNeeded: StableHash.of(bytes: bytes))
    }
}
