import Foundation

/// A file to embed: its path below the embedded folder, and its bytes.
struct ListedFile {
    var path: String
    var bytes: [UInt8]
}

/// Reads the files to embed.
enum FileListing {
    /// Every non-hidden regular file below `folder`, by path (byte-wise order, so builds agree).
    static func files(below folder: String) -> [ListedFile] {
        var found: [ListedFile] = []
        collect(folder, prefix: "", into: &found)
        return found.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    /// The file at `path`, embedded as `name`.
    static func read(_ path: String, as name: String) -> ListedFile {
        guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
        return ListedFile(path: name, bytes: [UInt8](data))
    }

    private static func collect(_ folder: String, prefix: String, into found: inout [ListedFile]) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            fail("cannot list \(folder): \(error)")
        }
        // Hidden files (.DS_Store, editor swap files) are never part of what ships.
        for name in names where !name.hasPrefix(".") {
            guard !name.contains("\\"), !name.contains("\""), name.unicodeScalars.allSatisfy({ $0.value >= 0x20 })
            else { fail("\(folder)/\(name): names with quotes, backslashes or control characters are not embedded") }
            let path = folder + "/" + name
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            if isFolder.boolValue {
                collect(path, prefix: prefix + name + "/", into: &found)
            } else {
                found.append(read(path, as: prefix + name))
            }
        }
    }
}
