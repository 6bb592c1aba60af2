import CZlib

/// gzip through zlib, as Pagefind writes its files (flate2's `GzEncoder` at `Compression::best`):
/// a header without a name or a time, so the same bytes give the same file.
package enum Gzip {
    package static func compress(_ input: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        // 15 + 16: a window of 2^15 bytes, and gzip's header and trailer.
        guard deflateInit2_(&stream, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            preconditionFailure("zlib cannot start a gzip stream")
        }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 32)
        var input = input
        let result = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        precondition(result == Z_STREAM_END, "zlib's bound on a gzip stream was too small")
        output.removeLast(Int(stream.avail_out))
        return output
    }

    /// The bytes a gzip stream holds; nil when it is not one.
    package static func decompress(_ input: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // 15 + 32: gzip or zlib, told apart by the header.
        guard inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var input = input
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        return input.withUnsafeMutableBufferPointer { source -> [UInt8]? in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            while true {
                let (result, produced) = chunk.withUnsafeMutableBufferPointer { target -> (Int32, Int) in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    let result = inflate(&stream, Z_NO_FLUSH)
                    return (result, target.count - Int(stream.avail_out))
                }
                output += chunk[0..<produced]
                switch result {
                case Z_STREAM_END: return output
                case Z_OK: continue
                default: return nil
                }
            }
        }
    }
}
