import Glibc

/// Writes every byte of `bytes` to `fd`, retrying after partial writes and `EINTR`.
///
/// Returns nil when everything was written, else the `errno` that stopped it (the rest is dropped).
@discardableResult
public func writeAll(fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    guard var next = bytes.baseAddress else { return nil }
    var left = bytes.count
    while left > 0 {
        let written = Glibc.write(fd, next, left)
        if written < 0 {
            if errno == EINTR { continue }
            return errno
        }
        left -= written
        next += written
    }
    return nil
}
