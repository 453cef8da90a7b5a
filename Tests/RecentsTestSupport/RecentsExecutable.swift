import Foundation

/// The `recents` executable that the build put beside the test bundle, for tests that run the
/// shipped binary in a process of its own (its own working directory, signals, a real kill -9).
public enum RecentsExecutable {
    /// The package's root directory: this file is Tests/RecentsTestSupport/RecentsExecutable.swift.
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The built binary, or nil when it has not been built.
    public static var url: URL? {
        let candidates = [
            Bundle.main.executableURL?.deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            packageRoot.appendingPathComponent(".build/debug"),
        ]
        return candidates.compactMap { $0?.appendingPathComponent("recents") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs the binary with `arguments` in `directory` and returns its exit status and what it
    /// printed on stdout and stderr together.
    public static func run(_ arguments: [String], in directory: URL) throws -> (status: Int32, output: String) {
        guard let url else { throw MissingExecutable() }
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: bytes, as: UTF8.self))
    }

    /// Thrown when the tests run without the `recents` executable built.
    public struct MissingExecutable: Error, CustomStringConvertible {
        public var description: String { "build the recents executable first (swift build)" }
    }
}
