import Foundation

// Build tool behind the EmbedFiles plugin.
//
// Usage: embed-files OUTPUT.swift NAME PATH [NAME PATH ...]
// Each PATH is a file or a folder (every non-hidden file below it, recursively). Writes one Swift
// file declaring `EmbeddedFile` and, per NAME, an enum: `files` and `file(at:)` for a folder,
// `file` for a single file. Each file keeps its exact bytes, its path (below the folder, with `/`),
// a media type from its extension (an unknown extension fails the build rather than ship a
// guess) and a strong ETag computed here, at build time.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("embed-files: error: \(message)\n".utf8))
    exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3, arguments.count % 2 == 1 else {
    fail("usage: embed-files OUTPUT.swift NAME PATH [NAME PATH ...]")
}
let outputPath = arguments[0]
var source = SwiftSource.header
for pair in stride(from: 1, to: arguments.count, by: 2) {
    let name = arguments[pair]
    let path = arguments[pair + 1]
    guard name.first?.isLetter == true, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
        fail("\(name): the name of an embedded set must be a Swift type name")
    }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { fail("\(path) does not exist") }
    if isFolder.boolValue {
        source += SwiftSource.folder(name: name, files: FileListing.files(below: path), from: path)
    } else {
        let fileName = (path as NSString).lastPathComponent
        source += SwiftSource.single(name: name, file: FileListing.read(path, as: fileName), from: path)
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
