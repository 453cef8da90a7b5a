import Glibc
import SystemSupport

/// The file `--auth-jwks` names: how it looks from outside (`stat`), to notice a change without
/// reading it, and its bytes with the look they were read under.
struct KeySetFile: Sendable {
    /// What `stat` says of the file. Any difference means "read it again": the inode and device
    /// change when the file is replaced by a rename (how `mv`, Kubernetes' secret volumes and most
    /// deploy tools update a file atomically), size and mtime on an edit in place, and ctime even
    /// when a copy preserved the old mtime (`cp -p`, `rsync -t`), since nobody can set ctime.
    struct Stamp: Sendable, Hashable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
        var changed: Int64

        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            modified = Int64(status.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(status.st_mtim.tv_nsec)
            changed = Int64(status.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(status.st_ctim.tv_nsec)
        }
    }

    /// The path as configured (relative paths are read from the working directory, every time).
    let path: String

    /// The file's stamp now.
    /// - Throws: `SystemError` when it cannot be examined (gone, no permission).
    func stamp() throws(SystemError) -> Stamp {
        var status = stat()
        guard stat(path, &status) == 0 else { throw SystemError("stat", code: errno) }
        return Stamp(status)
    }

    /// The file's bytes, and its stamp taken on the same open file, so a replacement between the
    /// two cannot pair new bytes with an old stamp.
    /// - Throws: `KeySetError` saying why it cannot be read, or that it is too large.
    func read() throws(KeySetError) -> (bytes: [UInt8], stamp: Stamp) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open", errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw failure("fstat", errno) }
        let bytes: [UInt8]
        do {
            bytes = try readAll(fd: fd, limit: KeySet.maximumBytes + 1)
        } catch {
            throw KeySetError(description: "cannot read \(path): \(error)")
        }
        guard bytes.count <= KeySet.maximumBytes else {
            throw KeySetError(description: "\(path) is over \(KeySet.maximumBytes) bytes")
        }
        return (bytes, Stamp(status))
    }

    private func failure(_ operation: String, _ code: Int32) -> KeySetError {
        KeySetError(description: "cannot read \(path): \(SystemError(operation, code: code))")
    }
}
