/// An `Encoder` that writes a value as bytes for `StableHash`: each key and each element with
/// its depth in the value before it, so that no two different values (of the same type) give
/// the same bytes. Nothing reads the bytes back. A `Set` or `Dictionary` writes its entries in
/// its process's order, so a value holding one may hash differently in another process: a key
/// that misses the cache, never a wrong one.
struct CanonicalEncoder: Encoder {
    let bytes: CanonicalBytes
    let depth: UInt8

    init(bytes: CanonicalBytes = CanonicalBytes(), depth: UInt8 = 0) {
        self.bytes = bytes
        self.depth = depth
    }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        bytes.mark(.keyed, depth)
        return KeyedEncodingContainer(Keyed(bytes: bytes, depth: depth &+ 1))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        bytes.mark(.unkeyed, depth)
        return Unkeyed(bytes: bytes, depth: depth &+ 1)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        Single(bytes: bytes, depth: depth)
    }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let bytes: CanonicalBytes
        let depth: UInt8
        var codingPath: [any CodingKey] { [] }

        private func key(_ key: Key) -> Single {
            bytes.mark(.key, depth)
            bytes.append(key.stringValue)
            return Single(bytes: bytes, depth: depth)
        }

        mutating func encodeNil(forKey key: Key) { self.key(key).encodeNil() }
        mutating func encode(_ value: Bool, forKey key: Key) { self.key(key).encode(value) }
        mutating func encode(_ value: String, forKey key: Key) { self.key(key).encode(value) }
        mutating func encode(_ value: Double, forKey key: Key) { self.key(key).encode(value) }
        mutating func encode(_ value: Int, forKey key: Key) { self.key(key).encode(value) }
        mutating func encode(_ value: Int64, forKey key: Key) { self.key(key).encode(value) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try self.key(key).encode(value) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            _ = self.key(key)
            return CanonicalEncoder(bytes: bytes, depth: depth).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            _ = self.key(key)
            return CanonicalEncoder(bytes: bytes, depth: depth).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            bytes.mark(.superValue, depth)
            return CanonicalEncoder(bytes: bytes, depth: depth)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            _ = self.key(key)
            return CanonicalEncoder(bytes: bytes, depth: depth)
        }
    }

    private struct Unkeyed: UnkeyedEncodingContainer {
        let bytes: CanonicalBytes
        let depth: UInt8
        var codingPath: [any CodingKey] { [] }
        var count = 0

        private mutating func element() -> Single {
            count += 1
            bytes.mark(.element, depth)
            return Single(bytes: bytes, depth: depth)
        }

        mutating func encodeNil() { element().encodeNil() }
        mutating func encode(_ value: Bool) { element().encode(value) }
        mutating func encode(_ value: String) { element().encode(value) }
        mutating func encode(_ value: Double) { element().encode(value) }
        mutating func encode(_ value: Int) { element().encode(value) }
        mutating func encode(_ value: Int64) { element().encode(value) }
        mutating func encode<T: Encodable>(_ value: T) throws { try element().encode(value) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            _ = element()
            return CanonicalEncoder(bytes: bytes, depth: depth).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            _ = element()
            return CanonicalEncoder(bytes: bytes, depth: depth).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            _ = element()
            return CanonicalEncoder(bytes: bytes, depth: depth)
        }
    }

    /// A value at `depth`: a primitive as its tag and bytes, anything else through its own
    /// `encode(to:)`, one level down.
    private struct Single: SingleValueEncodingContainer {
        let bytes: CanonicalBytes
        let depth: UInt8
        var codingPath: [any CodingKey] { [] }

        func encodeNil() { bytes.mark(.null, depth) }
        func encode(_ value: Bool) { bytes.mark(value ? .yes : .no, depth) }

        func encode(_ value: String) {
            bytes.mark(.string, depth)
            bytes.append(value)
        }

        func encode(_ value: Double) {
            bytes.mark(.double, depth)
            bytes.append(value.bitPattern)
        }

        func encode(_ value: Float) { encode(Double(value)) }
        func encode(_ value: Int) { encode(Int64(value)) }
        func encode(_ value: Int8) { encode(Int64(value)) }
        func encode(_ value: Int16) { encode(Int64(value)) }
        func encode(_ value: Int32) { encode(Int64(value)) }
        func encode(_ value: UInt) { encode(UInt64(value)) }
        func encode(_ value: UInt8) { encode(UInt64(value)) }
        func encode(_ value: UInt16) { encode(UInt64(value)) }
        func encode(_ value: UInt32) { encode(UInt64(value)) }

        func encode(_ value: Int64) {
            bytes.mark(.integer, depth)
            bytes.append(UInt64(bitPattern: value))
        }

        func encode(_ value: UInt64) {
            bytes.mark(.unsigned, depth)
            bytes.append(value)
        }

        func encode<T: Encodable>(_ value: T) throws {
            switch value {
            case let value as String: encode(value)
            case let value as Int: encode(value)
            case let value as Int64: encode(value)
            case let value as Double: encode(value)
            case let value as Bool: encode(value)
            case let value as any FixedWidthInteger & SignedInteger: encode(Int64(value))
            case let value as any FixedWidthInteger & UnsignedInteger: encode(UInt64(value))
            case let value as Float: encode(value)
            default: try value.encode(to: CanonicalEncoder(bytes: bytes, depth: depth &+ 1))
            }
        }
    }
}

/// The bytes a `CanonicalEncoder` writes, shared by its containers.
final class CanonicalBytes {
    enum Mark: UInt8 {
        case keyed = 1, unkeyed, key, element, superValue, null, yes, no, string, double, integer, unsigned
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
        withUnsafeBytes(of: value.littleEndian) { storage.append(contentsOf: $0) }
    }

    func append(bytes: [UInt8]) {
        storage.append(contentsOf: bytes)
    }

    func finish() -> [UInt8] { storage }
}
