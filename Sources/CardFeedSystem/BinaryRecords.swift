/// Numbers and byte strings written one after another, little-endian, for a file only CardFeed
/// reads back (the build cache). The reader checks every length against what is left, so a
/// truncated or damaged file is an error, never a crash or a read past its end.
package struct BinaryWriter {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Writes after `bytes`, in the same memory when nothing else holds it.
    package init(continuing bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// What was written, handed over: the writer is empty after.
    package mutating func takeBytes() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }

    package mutating func write(_ value: UInt64) {
        bytes.append(littleEndian: value)
    }

    package mutating func write(_ value: Int) { write(UInt64(bitPattern: Int64(value))) }

    package mutating func write(_ data: [UInt8]) {
        write(data.count)
        bytes.append(contentsOf: data)
    }

    package mutating func write(_ string: String) {
        // A span borrows the string's bytes, where `withUTF8` on a copy retained and released it.
        let utf8 = string.utf8.span
        write(utf8.count)
        utf8.withUnsafeBufferPointer { bytes.append(contentsOf: $0) }
    }

    /// Bytes as they are, without their length.
    package mutating func append(_ data: [UInt8]) {
        bytes.append(contentsOf: data)
    }

    /// An optional string: a flag (one byte), then the string.
    package mutating func write(_ string: String?) {
        write(string != nil)
        if let string { write(string) }
    }

    package mutating func write(_ value: Bool) { bytes.append(value ? 1 : 0) }
    package mutating func write(_ value: Int64) { write(UInt64(bitPattern: value)) }

    /// An optional number: a flag, then the number.
    package mutating func write(_ value: Int64?) {
        write(value != nil)
        if let value { write(value) }
    }

    package mutating func write(_ value: Double?) {
        write(value != nil)
        if let value { write(value.bitPattern) }
    }
}

package struct BinaryReader {
    /// The bytes are cut short, or are not what was written (a value out of its type's range).
    package struct Unreadable: Error {
        package init() {}
    }

    private let bytes: [UInt8]
    package private(set) var position: Int

    package init(_ bytes: [UInt8], from position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    package var atEnd: Bool { position == bytes.count }
    /// How many bytes are left to read.
    package var remaining: Int { bytes.count - position }

    package mutating func uint64() throws(Unreadable) -> UInt64 {
        guard bytes.count - position >= 8 else { throw Unreadable() }
        defer { position += 8 }
        // Eight bytes in one load, not one by one: a rebuild reads some two million numbers.
        return UInt64(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: position, as: UInt64.self) })
    }

    package mutating func int() throws(Unreadable) -> Int { Int(Int64(bitPattern: try uint64())) }

    package mutating func byteArray() throws(Unreadable) -> [UInt8] {
        let count = try int()
        guard count >= 0, bytes.count - position >= count else { throw Unreadable() }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    package mutating func string() throws(Unreadable) -> String {
        let count = try int()
        guard count >= 0, bytes.count - position >= count else { throw Unreadable() }
        defer { position += count }
        // Read where they are: a slice of the array would retain it and release it again.
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[position..<position + count]), as: UTF8.self) }
    }

    package mutating func optionalString() throws(Unreadable) -> String? {
        try bool() ? try string() : nil
    }

    package mutating func bool() throws(Unreadable) -> Bool {
        guard position < bytes.count, bytes[position] <= 1 else { throw Unreadable() }
        defer { position += 1 }
        return bytes[position] == 1
    }

    package mutating func int64() throws(Unreadable) -> Int64 { Int64(bitPattern: try uint64()) }
    package mutating func optionalInt64() throws(Unreadable) -> Int64? { try bool() ? try int64() : nil }
    package mutating func optionalDouble() throws(Unreadable) -> Double? { try bool() ? Double(bitPattern: try uint64()) : nil }

    /// The count of a list's elements, which follow: as many as there are bytes left at most
    /// (each takes a byte at least), so that a damaged count never has memory reserved for it.
    package mutating func count() throws(Unreadable) -> Int {
        let count = try int()
        guard count >= 0, count <= remaining else { throw Unreadable() }
        return count
    }

    /// A count, then as many elements, each read by `element`.
    package mutating func list<Element>(_ element: (inout BinaryReader) throws(Unreadable) -> Element) throws(Unreadable) -> [Element] {
        let count = try count()
        var elements: [Element] = []
        elements.reserveCapacity(count)
        for _ in 0..<count { elements.append(try element(&self)) }
        return elements
    }
}
