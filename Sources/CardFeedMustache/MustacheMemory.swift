import Foundation

// The engine's memory that no one counts references to. Both rendering threads read the same
// parsed templates, names and field tables for every card; held in arrays or classes, each
// read retained and released them, and the cache lines holding the counts travelled between
// the cores (retain and release were a fifth of the render step's samples). So the templates'
// steps, their literal text, the names' text and the views' field tables are laid out once in
// memory that is never counted, and the output is appended with `memcpy`. This file is the only
// one of the engine that holds a pointer; the rest uses the types below, whose reads are checked.

/// Elements laid out once, read by index without reference counting. Made from an array and
/// never changed; its owner frees it (`free()`) when nothing reads it any more, or never (a
/// name's text, a view type's field table: a few hundred, for the life of the process).
@usableFromInline
struct PlainBuffer<Element: Sendable>: @unchecked Sendable {
    @usableFromInline let base: UnsafeBufferPointer<Element>

    init(_ elements: [Element]) {
        let memory = UnsafeMutableBufferPointer<Element>.allocate(capacity: elements.count)
        _ = memory.initialize(from: elements)
        base = UnsafeBufferPointer(memory)
    }

    @inlinable
    var count: Int { base.count }

    /// Inlinable, so that a view's field table (`MustacheFields`) is read by code specialised
    /// for its key type: called across modules unspecialised, it looked the type up every time.
    @inlinable
    subscript(index: Int) -> Element {
        precondition(UInt(bitPattern: index) < UInt(bitPattern: base.count), "index out of range")
        return base[index]
    }

    /// Gives the memory back. Only the owner calls it, once, when nothing reads the buffer.
    func free() {
        UnsafeMutableBufferPointer(mutating: base).deinitialize().deallocate()
    }
}

/// One value laid out once and never freed, read without reference counting: what a view type
/// declares (`ViewNames`), which every view of that type reaches on every name it is asked.
public struct MustacheConstant<Value: Sendable>: @unchecked Sendable {
    private let pointer: UnsafePointer<Value>

    public init(_ value: Value) {
        let memory = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        memory.initialize(to: value)
        pointer = UnsafePointer(memory)
    }

    public var value: Value { pointer.pointee }
}

extension PlainBuffer where Element == UInt8 {
    /// The bytes as text (they are UTF-8).
    var string: String { String(decoding: base, as: UTF8.self) }
}

/// A piece of a template's literal text, in memory its template owns (`TextArena`): steps hold
/// it without reference counting, and a card renders some twenty of them.
struct Literal: @unchecked Sendable {
    fileprivate let bytes: UnsafeBufferPointer<UInt8>

    var count: Int { bytes.count }
    var isEmpty: Bool { bytes.isEmpty }
    var array: [UInt8] { Array(bytes) }

    /// Where the next line feed is, at or after `start`.
    func firstNewline(from start: Int) -> Int? {
        precondition(start >= 0 && start <= bytes.count, "index out of range")
        return bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
    }
}

/// The literal text of one template, freed with it. Written only while the template is parsed,
/// on one thread; then only read.
final class TextArena: @unchecked Sendable {
    private var pieces: [UnsafeMutableBufferPointer<UInt8>] = []

    func store(_ bytes: [UInt8]) -> Literal {
        let piece = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = piece.initialize(from: bytes)
        pieces.append(piece)
        return Literal(bytes: UnsafeBufferPointer(piece))
    }

    deinit {
        for piece in pieces { piece.deallocate() }
    }
}

/// What a template renders into: bytes copied with `memcpy` into memory this value owns.
/// `Array.append(contentsOf:)` checks capacity, uniqueness and the source's count at every call,
/// and a card appends some eighty pieces of text.
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
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if used + bytes.count > capacity { grow(to: used + bytes.count) }
        (base + used).initialize(from: source, count: bytes.count)
        used += bytes.count
    }

    @inlinable @inline(__always)
    public mutating func append(_ bytes: Span<UInt8>) {
        bytes.withUnsafeBufferPointer { append($0) }
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

    mutating func append(_ literal: Literal) {
        append(literal.bytes)
    }

    /// The bytes `range` of `literal`.
    mutating func append(_ literal: Literal, _ range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= literal.bytes.count, "range out of range")
        append(UnsafeBufferPointer(rebasing: literal.bytes[range]))
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

    private var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: used) }

    /// A copy of the bytes as an array.
    public var array: [UInt8] { Array(buffer) }

    /// The bytes as text (UTF-8, each invalid sequence replaced).
    public var string: String { String(decoding: buffer, as: UTF8.self) }

    /// Appends a copy of the bytes to `array`.
    public func copy(into array: inout [UInt8]) {
        array.append(contentsOf: buffer)
    }

    /// The bytes as `Data`, which takes over this value's memory rather than copying it: a
    /// feed on one page can be hundreds of megabytes.
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
