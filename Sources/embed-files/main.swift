import Foundation

// Build tool behind the EmbedFiles plugin.
//
// Usage: embed-files OUTPUT.swift [--precompressed] [--hashed] NAME PATH [...]
// Each PATH is a file or a folder (every non-hidden file below it, recursively). Writes one Swift
// file declaring `EmbeddedFile` and, per NAME, an enum: `files` and `file(at:)` for a folder,
// `file` for a single file. Each file keeps its exact bytes, its path (below the folder, with `/`),
// a media type from its extension (an unknown extension fails the build rather than ship a
// guess) and a strong ETag computed here, at build time. A set marked `--precompressed` (files
// served over HTTP) also carries each file as gzip (level 9) and br (quality 11), each only when
// smaller than the file, with its own ETag, so serving a coded copy costs no compression work.
// A folder marked `--hashed` (the web client) also carries every file under a content-hashed
// name with its references to the others renamed (`HashedNames`), the bundle of each module script
// of its index.html (`PageBundles`, `ModuleBundler`: one request for the page's script), and
// `page`: its index.html naming them, so everything but the page can be cached for good.

/// Prints `message` as the build's error and stops the build tool.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("embed-files: error: \(message)\n".utf8))
    exit(1)
}

/// One set to embed, as the arguments name it.
struct EmbeddingArgument {
    var name: String
    var path: String
    var precompressed: Bool
    var hashed: Bool
}

let usage = "usage: embed-files OUTPUT.swift [--precompressed] [--hashed] NAME PATH [...]"
var remaining = Array(CommandLine.arguments.dropFirst())
guard !remaining.isEmpty else { fail(usage) }
let outputPath = remaining.removeFirst()
var sets: [EmbeddingArgument] = []
while !remaining.isEmpty {
    var options: Set<String> = []
    while let option = remaining.first, option.hasPrefix("--") {
        guard option == "--precompressed" || option == "--hashed" else { fail(usage) }
        options.insert(remaining.removeFirst())
    }
    guard remaining.count >= 2 else { fail(usage) }
    sets.append(
        EmbeddingArgument(
            name: remaining[0], path: remaining[1], precompressed: options.contains("--precompressed"),
            hashed: options.contains("--hashed")))
    remaining.removeFirst(2)
}
guard !sets.isEmpty else { fail(usage) }
var source = SwiftSource.header
for set in sets {
    let (name, path) = (set.name, set.path)
    guard name.first?.isLetter == true, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
        fail("\(name): the name of an embedded set must be a Swift type name")
    }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { fail("\(path) does not exist") }
    if isFolder.boolValue {
        source += SwiftSource.folder(
            name: name, files: FileListing.files(below: path), from: path, precompressed: set.precompressed,
            hashed: set.hashed)
    } else {
        let fileName = (path as NSString).lastPathComponent
        source += SwiftSource.single(
            name: name, file: FileListing.read(path, as: fileName), from: path, precompressed: set.precompressed)
    }
}

// Leave an unchanged file untouched so its timestamp does not force a recompile.
if FileManager.default.contents(atPath: outputPath) != Data(source.utf8) {
    do {
        try Data(source.utf8).write(to: URL(fileURLWithPath: outputPath), options: .atomic)
    } catch {
        fail("cannot write \(outputPath): \(error)")
    }
}
