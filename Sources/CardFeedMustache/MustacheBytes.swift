import Foundation

/// What a template renders into: bytes copied with `memcpy` into memory this value owns.
/// `Array.append(contentsOf:)` spent about a hundred instructions a call checking capacity,
/// uniqueness and whether the source had more elements than it said, and a card appends some
/// eighty pieces of text (4% of a build's instructions went there).
public struct MustacheBytes: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var used = 0
    public var count: Int { used }

    public init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    @inlinable
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if used + bytes.count > capacity { grow(to: used + bytes.count) }
        (base + used).initialize(from: source, count: bytes.count)
        used += bytes.count
    }

    @inlinable
    public mutating func append(_ byte: UInt8) {
        if used == capacity { grow(to: used + 1) }
        base[used] = byte
        used += 1
    }

    @inlinable
    public mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Doubles the memory, or more when `needed` asks for it.
    @usableFromInline
    mutating func grow(to needed: Int) {
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: max(needed, capacity * 2))
        grown.initialize(from: base, count: used)
        base.deallocate()
        base = grown
        capacity = max(needed, capacity * 2)
    }

    /// Forgets the bytes, keeping the memory.
    public mutating func removeAll() { used = 0 }

    /// The bytes so far, valid while this value is not changed.
    public var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: used) }

    /// A copy of the bytes as an array.
    public var array: [UInt8] { Array(buffer) }

    /// The bytes as `Data`, which takes over this value's memory rather than copying it: a
    /// feed of 100,000 cards is some 150 MB of text.
    public consuming func data() -> Data {
        let (base, used) = (self.base, self.used)
        discard self
        guard used > 0 else {
            base.deallocate()
            return Data()
        }
        return Data(bytesNoCopy: base, count: used, deallocator: .custom { pointer, _ in pointer.deallocate() })
    }
}

extension String {
    /// Calls `body` with the text's UTF-8. Through `UTF8View.span` where the standard library
    /// has it (Swift 6.2; on Apple systems, their 2025 releases): a span borrows the text,
    /// where `withContiguousStorageIfAvailable` retained and released it, and much of what
    /// cards show is text both rendering threads share.
    @inlinable
    public func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        #if compiler(>=6.2)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return utf8.span.withUnsafeBufferPointer(body)
        }
        #endif
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(utf8).withUnsafeBufferPointer(body)
    }
}
