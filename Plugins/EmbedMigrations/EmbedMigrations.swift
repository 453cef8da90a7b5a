import Foundation
import PackagePlugin

/// Embeds the package's `Migrations/*.sql` files into the target as Swift source, so the binary
/// carries its schema history wherever it is installed or started from.
///
/// Inputs of the build command: every `.sql` file (editing one re-runs the generator) and the
/// `Migrations` directory itself, whose modification time changes when a file is added or
/// removed. SwiftPM caches this plugin's answer until the build is re-planned (a manifest or
/// target-layout change), so the generator lists the directory itself instead of trusting the
/// cached file list: a new migration is embedded at the next build. Known limits until the next
/// re-plan (`touch Package.swift` forces one): in-place edits of a file added since the last plan
/// go unnoticed, and deleting a file known to the plan is a "missing inputs" error. Shipped
/// migrations are never edited or deleted, and the test `embeddedMigrationsEqualTheFilesInMigrations`
/// fails loudly if the embedded copy is ever stale.
@main
struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let directory = context.package.directoryURL.appending(path: "Migrations", directoryHint: .isDirectory)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".sql") }
            .sorted()
        let files = names.map { directory.appending(path: $0, directoryHint: .notDirectory) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding migrations into \(target.name)",
                executable: try context.tool(named: "embed-migrations").url,
                arguments: [output.path, directory.path],
                inputFiles: [directory] + files,
                outputFiles: [output]
            )
        ]
    }
}
