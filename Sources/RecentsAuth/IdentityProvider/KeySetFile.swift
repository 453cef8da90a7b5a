import SystemSupport

/// The file `--auth-jwks` names, read as a `WatchedFile` within the key set's size limit.
struct KeySetFile: Sendable {
    typealias Stamp = WatchedFile.Stamp

    private let file: WatchedFile

    /// The path as configured (relative paths are read from the working directory, every time).
    var path: String { file.path }

    init(path: String) {
        file = WatchedFile(path: path)
    }

    /// The file's stamp now.
    /// - Throws: `SystemError` when it cannot be examined (gone, no permission).
    func stamp() throws(SystemError) -> Stamp {
        try file.stamp()
    }

    /// The file's bytes, and its stamp taken on the same open file.
    /// - Throws: `KeySetError` saying why it cannot be read, or that it is too large.
    func read() throws(KeySetError) -> (bytes: [UInt8], stamp: Stamp) {
        let read: (bytes: [UInt8], stamp: Stamp)
        do {
            read = try file.read(limit: KeySet.maximumBytes + 1)
        } catch {
            throw KeySetError(description: "cannot read \(path): \(error)")
        }
        guard read.bytes.count <= KeySet.maximumBytes else {
            throw KeySetError(description: "\(path) is over \(KeySet.maximumBytes) bytes")
        }
        return read
    }
}
