import Foundation

/// Bytes read where they are, without copying them: a card file's (mapped into memory: card
/// files are most of what a build reads), a string's UTF-8, an array's. This file is the one place outside the template
/// engine that holds a pointer to bytes; everything else reads them through a `ByteView`, which
/// checks every index.
///
/// A view is had only inside `withByteView`, for as long as its closure runs, and must not be
/// kept after it: the closure's caller owns the memory. (A `Span` says the same to the compiler,
/// but a span cannot yet be a stored property, and the JSON parser keeps its bytes in one.)
@usableFromInline
package struct ByteView: RandomAccessCollection, @unchecked Sendable {
    @usableFromInline let base: UnsafeBufferPointer<UInt8>

    /// The first byte's address, for a C function that reads the bytes (libyaml's input) within
    /// the `withByteView` call that made this view, never after it.
    package var address: UnsafePointer<UInt8>? { base.baseAddress }

    @usableFromInline init(_ base: UnsafeBufferPointer<UInt8>) {
        self.base = base
    }

    @inlinable package var startIndex: Int { 0 }
    @inlinable package var endIndex: Int { base.count }
    @inlinable package var count: Int { base.count }

    @inlinable
    package subscript(position: Int) -> UInt8 {
        precondition(UInt(bitPattern: position) < UInt(bitPattern: base.count), "byte index out of range")
        return base[position]
    }

    @inlinable
    package func withContiguousStorageIfAvailable<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result? {
        try body(base)
    }

    /// The bytes of `range`, which must lie inside the view.
    @inlinable
    package func slice(_ range: Range<Int>) -> ByteView {
        precondition(range.lowerBound >= 0 && range.upperBound <= base.count, "byte range out of range")
        return ByteView(UnsafeBufferPointer(rebasing: base[range]))
    }

    /// A copy of the bytes, made with `memcpy` (`Array(view)` goes through the generic copy of
    /// a sequence, element by element).
    package var array: [UInt8] { Array(base) }

    /// The bytes of `range` as text, each invalid sequence replaced by U+FFFD.
    package func string(_ range: Range<Int>) -> String {
        String(decoding: slice(range).base, as: UTF8.self)
    }

    /// The bytes as text, ASCII capitals made small letters (a URL's scheme), written straight
    /// into the string's memory.
    package var lowercasedASCII: String {
        String(unsafeUninitializedCapacity: base.count) { lowered in
            for (index, byte) in base.enumerated() { lowered[index] = (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
            return base.count
        }
    }

    /// The bytes of `range` as text, or nil when they are not valid UTF-8.
    package func validString(_ range: Range<Int>) -> String? {
        String(validating: slice(range).base, as: UTF8.self)
    }

    /// The first `byte` at or after `start`, found with `memchr` (vectorised, unlike a
    /// loop over the bytes: most of a card file is text between quotes).
    @inlinable
    package func firstIndex(of byte: UInt8, from start: Int) -> Int? {
        guard start < base.count, let base = base.baseAddress else { return nil }
        precondition(start >= 0, "byte index out of range")
        guard let found = memchr(base + start, Int32(byte), self.base.count - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// From `start`, the first byte that ends the plain run of a JSON text (a quote, a backslash
    /// or a control character), or `count` when none does; and whether the bytes before it are
    /// all ASCII. Most of a card file is such runs: this loop reads them without checking each
    /// index (the range is checked once).
    package func endOfPlainText(from start: Int) -> (end: Int, ascii: Bool) {
        precondition(start >= 0 && start <= base.count, "byte index out of range")
        var ascii = true
        var index = start
        while index < base.count {
            let byte = base[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        return (index, ascii)
    }

    /// Whether `word` is what the bytes hold at `position`.
    package func holds(_ word: StaticString, at position: Int) -> Bool {
        let length = word.utf8CodeUnitCount
        guard position >= 0, position + length <= base.count else { return false }
        return length == 0 || memcmp(base.baseAddress! + position, word.utf8Start, length) == 0
    }

    /// Whether `length` bytes from `start` are the same as those of `other` from `otherStart`.
    package func holds(_ other: ByteView, from otherStart: Int, at start: Int, length: Int) -> Bool {
        precondition(start >= 0 && otherStart >= 0 && length >= 0 && start + length <= base.count && otherStart + length <= other.base.count, "byte range out of range")
        return length == 0 || memcmp(base.baseAddress! + start, other.base.baseAddress! + otherStart, length) == 0
    }

    /// Feeds the bytes of `range` to `hasher` in one piece, rather than byte by byte.
    package func hash(_ range: Range<Int>, into hasher: inout Hasher) {
        hasher.combine(bytes: UnsafeRawBufferPointer(slice(range).base))
    }
}

extension Data {
    /// Calls `body` with the data's bytes, read where they are.
    @inlinable
    package func withByteView<Result, Failure: Error>(_ body: (ByteView) throws(Failure) -> Result) throws(Failure) -> Result {
        let result: Swift.Result<Result, Failure> = withUnsafeBytes { raw in
            Swift.Result { () throws(Failure) in try body(ByteView(raw.bindMemory(to: UInt8.self))) }
        }
        return try result.get()
    }
}

extension Array where Element == UInt8 {
    /// Appends a copy of `bytes`, made with `memcpy` (see `ByteView.array`).
    @inlinable
    package mutating func append(_ bytes: ByteView) {
        append(contentsOf: bytes.base)
    }

    /// Calls `body` with the array's bytes, read where they are.
    @inlinable
    package func withByteView<Result, Failure: Error>(_ body: (ByteView) throws(Failure) -> Result) throws(Failure) -> Result {
        let result: Swift.Result<Result, Failure> = withUnsafeBufferPointer { buffer in
            Swift.Result { () throws(Failure) in try body(ByteView(buffer)) }
        }
        return try result.get()
    }

    /// Appends `value`'s eight bytes, little-endian: a number in what the build cache writes
    /// (`BinaryWriter`) and hashes (`StableHasher`, `StableHash.reflecting`).
    @inlinable
    package mutating func append(littleEndian value: UInt64) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    /// Appends each of `integers`' bytes as memory holds them (the platform's order), in one copy:
    /// a list of thousands hashed as one string of bytes.
    @inlinable
    package mutating func append(memoryOf integers: [Int]) {
        integers.withUnsafeBytes { append(contentsOf: $0) }
    }
}

extension ArraySlice where Element == UInt8 {
    /// Calls `body` with the slice's bytes, read where they are.
    @inlinable
    package func withByteView<Result, Failure: Error>(_ body: (ByteView) throws(Failure) -> Result) throws(Failure) -> Result {
        let result: Swift.Result<Result, Failure> = withUnsafeBufferPointer { buffer in
            Swift.Result { () throws(Failure) in try body(ByteView(buffer)) }
        }
        return try result.get()
    }
}

extension String {
    /// The text of a C string that may be absent (libyaml's anchor names), up to its NUL.
    package init?(nulTerminated pointer: UnsafePointer<UInt8>?) {
        guard let pointer else { return nil }
        self.init(cString: pointer)
    }

    /// Calls `body` with the text's UTF-8, read where it is when the string is native (a
    /// bridged or lazily decoded one is copied first).
    @inlinable
    package func withByteView<Result, Failure: Error>(_ body: (ByteView) throws(Failure) -> Result) throws(Failure) -> Result {
        let result: Swift.Result<Result, Failure>? = utf8.withContiguousStorageIfAvailable { buffer in
            Swift.Result { () throws(Failure) in try body(ByteView(buffer)) }
        }
        if let result { return try result.get() }
        return try Array(utf8).withByteView(body)
    }
}

extension Hasher {
    /// Feeds every byte of `bytes` in one piece (`combine(bytes)` hashes them one by one).
    package mutating func combine(contentsOf bytes: [UInt8]) {
        bytes.withByteView { $0.hash(0..<$0.count, into: &self) }
    }
}

extension Span where Element == UInt8 {
    /// The first byte at or after `start` whose flag in `table` is set (a byte that text escaping
    /// must look at), read without checking each index: text is escaped for every name a card
    /// shows, and most of it has no such byte.
    package func firstIndex(flaggedIn table: InlineArray<256, Bool>, from start: Int) -> Int? {
        precondition(start >= 0 && start <= count, "byte index out of range")
        return withUnsafeBufferPointer { bytes in
            var index = start
            while index < bytes.count {
                if table[Int(bytes[index])] { return index }
                index += 1
            }
            return nil
        }
    }
}
