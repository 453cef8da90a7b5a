internal import CZlib

/// A zlib inflate stream that reads gzip framing only (RFC 1952), the engine of `Gzip.decode` and
/// `GzipStreamDecoder`.
///
/// Concatenated gzip members decode as one content, as `gzip -d` does (RFC 1952 §2.2); anything
/// else after a member's trailer is corrupt.
final class Inflater {
    private let stream: UnsafeMutablePointer<z_stream>
    /// A member ended and no byte of another has been read yet.
    private(set) var atMemberEnd = false
    /// The error that ended the stream; every later call throws it again.
    private(set) var failure: DecompressionError?

    /// A stream ready for the first byte of a gzip member.
    init() {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // 15 + 16: any window up to 32 KiB, gzip framing only (zlib manual, inflateInit2).
        let status = recents_inflate_init(stream, 15 + 16)
        precondition(status == Z_OK, "inflateInit2 failed (\(status)): out of memory")
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Inflates `input`, returning what it decodes to, at most `limit` bytes.
    /// - Throws: `.tooLarge` once the output would pass `limit` (after at most `limit + 1` bytes
    ///   were produced), `.corrupt` for bytes that are not gzip; a failed stream stays failed.
    func run(_ input: [UInt8], limit: Int) throws(DecompressionError) -> [UInt8] {
        if let failure { throw failure }
        // Deflate rarely shrinks JSON more than 8x; a larger content grows the buffer by doubling.
        var output = OutputBuffer(limit: limit, expected: min(input.count, OutputBuffer.step / 8) * 8)
        let result = input.withUnsafeBufferPointer { input -> DecompressionError? in
            defer { stream.pointee.next_in = nil }
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointee.avail_in = uInt(input.count)
            while true {
                if atMemberEnd {
                    guard stream.pointee.avail_in > 0 else { return nil }
                    inflateReset(stream)
                    atMemberEnd = false
                }
                let status = output.fill(from: stream) { inflate($0, Z_NO_FLUSH) }
                if output.isOverLimit { return .tooLarge(limit: output.limit) }
                switch status {
                case Z_STREAM_END:
                    atMemberEnd = true
                case Z_OK, Z_BUF_ERROR:
                    // Room left over means zlib wants more input; none is left, so this call is done.
                    if stream.pointee.avail_out > 0 && stream.pointee.avail_in == 0 { return nil }
                    if status == Z_BUF_ERROR && stream.pointee.avail_in == 0 { return nil }
                case Z_MEM_ERROR:
                    preconditionFailure("inflate: out of memory")
                default:
                    // Z_DATA_ERROR (bad header, block or checksum), Z_NEED_DICT (gzip has no dictionary).
                    return .corrupt
                }
            }
        }
        if let result {
            failure = result
            throw result
        }
        return output.take()
    }
}
