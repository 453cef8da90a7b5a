import Foundation
import RecentsAPI
import Testing

@testable import RecentsCLI

@Suite struct UsageTests {
    @Test func serveHelpPrintsEachDefaultFromTheConfiguration() {
        let help = Usage.command(ServeCommand.self)
        let defaults = AppConfiguration()
        #expect(help.contains("env RECENTS_MAX_HEAD_BYTES, default \(defaults.http.maxHeadBytes)\n"))
        #expect(help.contains("env RECENTS_HOST, default \(defaults.http.host)\n"))
        #expect(help.contains("env RECENTS_DB, default \(defaults.store.path)\n"))
        #expect(help.contains("env RECENTS_RETAIN_VERSIONS, default \(defaults.store.retainVersions)\n"))
        #expect(help.contains("env RECENTS_LOG_LEVEL, default info\n"))
        #expect(help.contains("env RECENTS_HEAD_TIMEOUT, default 10\n"))
        #expect(help.contains("env RECENTS_THREADS, default 0\n"))
        #expect(help.contains("env RECENTS_CORS_ORIGIN, no default\n"))
    }

    @Test func requiredFlagsSaySo() {
        let help = Usage.command(SeedCommand.self)
        #expect(help.contains("--list NAME"))
        #expect(help.contains("default current time"))
        #expect(help.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces) == "required" }.count == 2)
    }

    /// The README's configuration table is the help of `serve`: same flags in the same order,
    /// same variables, same defaults ("none" where help says "no default").
    @Test func theReadmeTableMatchesTheHelp() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `--") }.map { line in
            line.split(separator: "|").map {
                $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "")
            }
        }
        let help = ServeCommand.flagHelp
        #expect(rows.map { $0[0] } == help.map { "--" + $0.name })
        #expect(rows.map { $0[1] } == help.map { $0.environmentName ?? "" })
        #expect(rows.map { $0[2] } == help.map { $0.defaultText ?? "none" })
    }
}
