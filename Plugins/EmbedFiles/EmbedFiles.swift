import Foundation
import PackagePlugin

/// One set of files a target carries inside the binary, as a generated enum named `name`.
struct Embedding: Sendable {
    /// The generated enum's name.
    var name: String
    /// A folder (every file below it) or a single file, relative to the package root.
    var path: String
    /// Whether each file also ships as gzip and br (files served over HTTP; not migrations).
    var precompressed = false
    /// Whether the folder also ships under content-hashed names, its page's scripts bundled (the
    /// web client; see embed-files).
    var hashed = false
}

/// Embeds files into targets as Swift source, so the binary carries them wherever it is installed
/// or started from: migrations, the OpenAPI document, the web client's static files.
///
/// Each target's entries become one generated file declaring `EmbeddedFile` (path, bytes, media
/// type, strong ETag; for a precompressed set also `gzip` and `br` copies, each with its own ETag,
/// present only when smaller than the file) and one enum per entry: a folder gives `files` and
/// `file(at:)`, a single file gives `file`. Adding a set is one line in `embeddings`.
///
/// Inputs of the build command: every embedded file (an edit re-runs the generator) and, for a
/// folder, the folder and each folder below it, whose modification time changes when a file is
/// added or removed. SwiftPM caches this plugin's answer until the build is re-planned (a manifest
/// or target-layout change), so the generator lists folders itself instead of trusting the cached
/// list: a new file is embedded at the next build. Until the next re-plan (`touch Package.swift`
/// forces one), in-place edits of a file added since the last plan go unnoticed, and deleting a
/// file known to the plan fails the build with "missing inputs". Tests compare each embedded set
/// with the files in the tree, so a stale copy fails loudly.
@main
struct EmbedFiles: BuildToolPlugin {
    /// What each target embeds (target name → its sets).
    static let embeddings: [String: [Embedding]] = [
        "RecentsStore": [Embedding(name: "EmbeddedMigrations", path: "Migrations")],
        "RecentsAPI": [
            Embedding(name: "EmbeddedOpenAPI", path: "docs/openapi.json", precompressed: true),
            Embedding(name: "EmbeddedWeb", path: "Web", precompressed: true, hashed: true),
        ],
    ]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let sets = Self.embeddings[target.name], !sets.isEmpty else { return [] }
        var inputs: [URL] = []
        var arguments: [String] = []
        for set in sets {
            let url = context.package.directoryURL.appending(path: set.path)
            inputs += try Self.inputs(below: url)
            arguments +=
                (set.precompressed ? ["--precompressed"] : []) + (set.hashed ? ["--hashed"] : [])
                + [set.name, url.path]
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(sets.map(\.path).joined(separator: ", ")) into \(target.name)",
                executable: try context.tool(named: "embed-files").url,
                arguments: [output.path] + arguments,
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }

    /// A file itself, or a folder with every folder and (non-hidden) file below it.
    static func inputs(below url: URL) throws -> [URL] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw PluginError(message: "\(url.path) does not exist")
        }
        guard isFolder.boolValue else { return [url] }
        var found = [url]
        for name in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() where !name.hasPrefix(".") {
            found += try inputs(below: url.appending(path: name))
        }
        return found
    }
}

/// Why the plugin cannot plan the build.
struct PluginError: Error, CustomStringConvertible {
    var message: String
    var description: String { "EmbedFiles: \(message)" }
}
