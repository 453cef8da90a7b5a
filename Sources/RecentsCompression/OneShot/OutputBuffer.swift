/// Output of a codec call, grown in steps and never past `limit + 1` bytes.
///
/// The codec writes straight into the array's storage; one byte beyond the limit is room enough
/// to learn that the content is too large, so a decompression bomb allocates and produces at most
/// `limit + 1` bytes. The first allocation is the caller's guess (at least 64 bytes; decoders
/// guess at most `step`); each growth then doubles the size, adding at least `step`, up to that cap.
struct OutputBuffer {
    /// The largest first allocation a decoder asks for, and the least each later growth adds.
    static let step = 16 * 1024

    private var bytes: [UInt8] = []
    private let first: Int
    /// Bytes written so far.
    private(set) var produced = 0
    /// The most bytes the caller wants; the buffer holds at most one more.
    let limit: Int

    /// An empty buffer for at most `limit` bytes (`Int.max`: no limit), first sized for `expected`.
    init(limit: Int, expected: Int = step) {
        self.limit = max(0, limit)
        first = max(expected, 64)
    }

    /// Whether more than `limit` bytes were written.
    var isOverLimit: Bool { produced > limit }

    private var cap: Int { limit == .max ? .max : limit + 1 }

    /// Calls `write` with the free room (at least one byte) and counts what it says it wrote.
    mutating func fill(_ write: (UnsafeMutablePointer<UInt8>, Int) -> Int) {
        if bytes.count == produced {
            let target = min(cap, produced == 0 ? min(first, cap) : max(produced * 2, produced + Self.step))
            precondition(target > produced, "OutputBuffer is full: check isOverLimit before filling again")
            bytes.reserveCapacity(target)
            bytes.append(contentsOf: repeatElement(0, count: target - bytes.count))
        }
        let start = produced
        let written = bytes.withUnsafeMutableBufferPointer { storage in
            // A non-empty array always has storage.
            write(storage.baseAddress.unsafelyUnwrapped + start, storage.count - start)
        }
        produced += written
    }

    /// The bytes written, trimmed to their count.
    mutating func take() -> [UInt8] {
        bytes.removeSubrange(produced...)
        return bytes
    }
}
