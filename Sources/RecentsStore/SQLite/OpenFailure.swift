internal import CSQLite
import Glibc

/// Turns a failure to open (or first read) a database file into a sentence naming the path and
/// the reason, as an operator reads it at startup: SQLite itself only says "unable to open
/// database file", so the file system is asked what is actually wrong.
enum OpenFailure {
    /// The `StoreError.cannotOpen` for `error`, met while opening the database at `path`.
    static func explain(_ error: SQLiteError, path: String) -> StoreError {
        .cannotOpen(sentence(for: error, path: path))
    }

    static func sentence(for error: SQLiteError, path: String) -> String {
        switch FileKind(path) {
        case .directory:
            return "cannot open \(path): it is a directory, not a database file"
        case .other:
            return "cannot open \(path): it is not a regular file"
        case .missing:
            let directory = parent(of: path)
            switch FileKind(directory) {
            case .missing: return "cannot create \(path): directory does not exist"
            case .file, .other: return "cannot create \(path): \(directory) is not a directory"
            case .directory:
                return "cannot create \(path): \(reason(errno: creationErrno(path) ?? error.systemErrno, error))"
            }
        case .file:
            switch error.code {
            case SQLITE_NOTADB: return "cannot open \(path): the file is not a SQLite database"
            case SQLITE_CORRUPT: return "cannot open \(path): the database file is corrupt"
            case SQLITE_READONLY:
                return "cannot open \(path): the file is read-only, or its directory is not writable "
                    + "(the database needs write access to it and to its -wal and -shm files beside it)"
            default: return "cannot open \(path): \(reason(errno: error.systemErrno, error))"
            }
        }
    }

    /// The operating system's reason when there is one, else SQLite's.
    private static func reason(errno: Int32, _ error: SQLiteError) -> String {
        switch errno {
        case 0: error.description
        case EACCES, EPERM: "permission denied"
        case EROFS: "read-only file system"
        case ENOSPC: "no space left on device"
        default: String(cString: strerror(errno)).lowercased()
        }
    }

    /// Why creating `path` fails, by trying it: SQLite retries a failed create read-only, so the
    /// `errno` it keeps is that retry's "no such file", not the "permission denied" that matters.
    /// nil when the file can be created now (it is removed again).
    private static func creationErrno(_ path: String) -> Int32? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return errno }
        close(descriptor)
        unlink(path)
        return nil
    }

    /// The directory part of `path` (`.` for a bare file name).
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = path[..<slash]
        return directory.isEmpty ? "/" : String(directory)
    }

    /// What a path names, by `stat(2)`.
    private enum FileKind {
        case missing, file, directory, other

        init(_ path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else {
                self = .missing
                return
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG: self = .file
            case S_IFDIR: self = .directory
            default: self = .other
            }
        }
    }
}
