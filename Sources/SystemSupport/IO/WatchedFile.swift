import Glibc

/// A small file a process follows (a key set, a placement): how it looks from outside (`stat`),
/// to notice a change without reading it, and its bytes with the look they were read under.
public struct WatchedFile: Sendable {
    /// What `stat` says of the file. Any difference means "read it again": the inode and device
    /// change when the file is replaced by a rename (how `mv`, Kubernetes' secret volumes and most
    /// deploy tools update a file atomically), size and mtime on an edit in place, and ctime even
    /// when a copy preserved the old mtime (`cp -p`, `rsync -t`), since nobody can set ctime.
    public struct Stamp: Sendable, Hashable {
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
    public let path: String

    /// A file at `path`.
    public init(path: String) {
        self.path = path
    }

    /// The file's stamp now.
    /// - Throws: `SystemError` when it cannot be examined (gone, no permission).
    public func stamp() throws(SystemError) -> Stamp {
        var status = stat()
        guard stat(path, &status) == 0 else { throw SystemError("stat", code: errno) }
        return Stamp(status)
    }

    /// Up to `limit` bytes of the file, and its stamp taken on the same open file, so a
    /// replacement between the two cannot pair new bytes with an old stamp. Ask for one byte more
    /// than is accepted to tell a file that is too large.
    /// - Throws: `SystemError` for the call that failed.
    public func read(limit: Int) throws(SystemError) -> (bytes: [UInt8], stamp: Stamp) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError("open", code: errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw SystemError("fstat", code: errno) }
        return (try readAll(fd: fd, limit: limit), Stamp(status))
    }
}
