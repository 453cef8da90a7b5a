import Foundation
import PackagePlugin

/// Embeds the package's `Migrations/*.sql` files into the target as Swift source, so the binary
/// carries its schema history wherever it is installed or started from.
///
/// Every `.sql` file is declared as an input of the build command, so editing one re-runs the
/// generator; SwiftPM re-evaluates this plugin on every build, so adding or removing a file
/// changes the command's input list and re-runs it too.
@main
struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let directory = context.package.directoryURL.appending(path: "Migrations", directoryHint: .isDirectory)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".sql") }
            .sorted()
        let inputs = names.map { directory.appending(path: $0, directoryHint: .notDirectory) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) migration(s) into \(target.name)",
                executable: try context.tool(named: "embed-migrations").url,
                arguments: [output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
