import Glibc

/// Reads from `fd` until end of file or `limit` bytes, whichever comes first, retrying on EINTR.
///
/// A caller that must refuse oversized files asks for one byte more than it accepts and checks
/// the count: the read never allocates more than `limit`, whatever the file's size.
/// - Throws: `SystemError` for the `read` that failed.
public func readAll(fd: Int32, limit: Int) throws(SystemError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: limit)
    var count = 0
    while count < limit {
        let got = bytes.withUnsafeMutableBytes { buffer in
            Glibc.read(fd, buffer.baseAddress.map { $0 + count }, limit - count)
        }
        if got < 0 {
            if errno == EINTR { continue }
            throw SystemError("read", code: errno)
        }
        if got == 0 { break }
        count += got
    }
    bytes.removeSubrange(count...)
    return bytes
}
