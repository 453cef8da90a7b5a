import Glibc
import SystemSupport

/// Reads the first bytes of a small file (an auth secret), never more than asked for.
enum FileBytes {
    /// Up to `limit` bytes of the file at `path`.
    /// - Throws: `SystemError` when it cannot be opened or read.
    static func read(_ path: String, limit: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError("open", code: errno) }
        defer { close(fd) }
        return try readAll(fd: fd, limit: limit)
    }
}
