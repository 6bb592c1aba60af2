/// Numbers and byte strings written one after another, little-endian, for a file only CardFeed
/// reads back (the build cache). The reader checks every length against what is left, so a
/// truncated or damaged file is an error, never a crash or a read past its end.
package struct BinaryWriter {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
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
        var string = string
        string.withUTF8 { utf8 in
            write(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    /// Bytes as they are, without their length.
    package mutating func append(_ data: [UInt8]) {
        bytes.append(contentsOf: data)
    }

    /// An optional string: a flag, then the string.
    package mutating func write(_ string: String?) {
        write(string == nil ? 0 : 1)
        if let string { write(string) }
    }
}

package struct BinaryReader {
    package struct Truncated: Error {}

    private let bytes: [UInt8]
    package private(set) var position: Int

    package init(_ bytes: [UInt8], from position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    package var atEnd: Bool { position == bytes.count }
    /// How many bytes are left to read.
    package var remaining: Int { bytes.count - position }

    package mutating func uint64() throws(Truncated) -> UInt64 {
        guard bytes.count - position >= 8 else { throw Truncated() }
        var value: UInt64 = 0
        for offset in (0..<8).reversed() { value = value << 8 | UInt64(bytes[position + offset]) }
        position += 8
        return value
    }

    package mutating func int() throws(Truncated) -> Int { Int(Int64(bitPattern: try uint64())) }

    package mutating func byteArray() throws(Truncated) -> [UInt8] {
        let count = try int()
        guard count >= 0, bytes.count - position >= count else { throw Truncated() }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    package mutating func string() throws(Truncated) -> String {
        let count = try int()
        guard count >= 0, bytes.count - position >= count else { throw Truncated() }
        defer { position += count }
        return String(decoding: bytes[position..<position + count], as: UTF8.self)
    }

    package mutating func optionalString() throws(Truncated) -> String? {
        try int() == 0 ? nil : try string()
    }
}
