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

    /// Each command's help is two columns: every flag's help starts where the others' do, even
    /// after the longest flag (`--compression-threshold BYTES`).
    @Test func everyHelpLineStartsInOneColumn() {
        for command in commands {
            let lines = Usage.command(command).split(separator: "\n").filter { $0.hasPrefix("  ") }
            let columns = Set(
                lines.compactMap { line in
                    line.dropFirst(2).firstRange(of: "  ").map { range in
                        line.distance(from: line.startIndex, to: range.lowerBound)
                            + line[range.lowerBound...].prefix(while: { $0 == " " }).count
                    }
                })
            #expect(columns.count == 1, "\(command.name): help starts at columns \(columns.sorted())")
        }
    }

    @Test func theHelpStatesTheLimitsAndTheExitStatuses() {
        #expect(Usage.command(TokenCommand.self).contains("lifetime in seconds, 1..31622400 (366 days)"))
        let main = Usage.main()
        #expect(main.contains("exit status: 0 ok; 1 when the work fails"))
        #expect(main.contains("2 on a usage error"))
        #expect(main.contains("  new-epoch     give a restored database a new epoch"))
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
