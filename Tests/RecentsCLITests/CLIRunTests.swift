import Glibc
import RecentsAPI
import Testing

@testable import RecentsCLI

@Suite struct CLIRunTests {
    @Test(arguments: [["--help"], ["help"], ["-h"]])
    func topLevelHelp(_ arguments: [String]) {
        let result = run(arguments)
        #expect(result.status == 0)
        #expect(result.standard.first?.hasPrefix("usage: recents <command>") == true)
    }

    @Test func commandHelpThreeWays() {
        for arguments in [["serve", "--help"], ["help", "serve"], ["serve", "-h"]] {
            let result = run(arguments)
            #expect(result.status == 0)
            #expect(result.standard.first?.hasPrefix("usage: recents serve [flags]") == true)
        }
    }

    @Test func versionPrintsTheVersion() {
        #expect(run(["--version"]).standard == ["recents \(CLI.version)"])
    }

    @Test func noCommandIsAUsageError() {
        let result = run([])
        #expect(result.status == 2)
        #expect(result.error.first?.hasPrefix("usage: recents") == true)
    }

    @Test func mistakesPrintTwoLinesAndExitTwo() {
        let result = run(["frobnicate"])
        #expect(result.status == 2)
        #expect(result.error == ["recents: error: unknown command 'frobnicate'", "run 'recents --help'"])
        let serve = run(["serve", "--port", "x"])
        #expect(serve.status == 2)
        #expect(
            serve.error == [
                "recents serve: error: invalid value 'x' for --port: must be an integer from 0 to 65535",
                "run 'recents serve --help'",
            ])
    }

    @Test(arguments: [
        (["seed", "--calls", "5"], "missing required flag '--list'"),
        (["seed", "--list", "demo"], "missing required flag '--calls'"),
        (
            ["seed", "--list", "a/b", "--calls", "5"],
            "invalid value 'a/b' for --list: must be 1 to 64 characters of A-Z a-z 0-9 . _ -"
        ),
        (
            ["seed", "--list", "demo", "--calls", "0"],
            "invalid value '0' for --calls: must be an integer from 1 to 1000000"
        ),
        (["healthcheck", "--port", "0"], "invalid value '0' for --port: must be an integer from 1 to 65535"),
        (
            ["healthcheck", "--timeout", "0"],
            "invalid value '0' for --timeout: must be a number of seconds above 0 and at most 3600"
        ),
        (["migrate", "--db"], "missing value for '--db'"),
        (["migrate", "--db="], "--db must not be empty"),
    ])
    func otherCommandsCheckTheirFlags(_ arguments: [String], _ message: String) {
        let result = run(arguments)
        #expect(result.status == 2)
        #expect(result.error.first == "recents \(arguments[0]): error: \(message)")
    }

    @Test func healthcheckReportsNothingListening() throws {
        // Port 1 on loopback: nothing listens there in a test environment.
        let result = run(["healthcheck", "--port", "1", "--timeout", "2"])
        #expect(result.status == 1)
        #expect(
            result.error.first?.hasPrefix("recents healthcheck: unhealthy: cannot connect to 127.0.0.1:1: ") == true)
    }

    @Test func migrateReportsWhatItApplied() throws {
        let path = "/tmp/recents-cli-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
        let first = run(["migrate"], environment: ["RECENTS_DB": path])
        #expect(first.status == 0)
        #expect(!first.standard.isEmpty && first.standard != ["database is up to date"])
        #expect(run(["migrate", "--db", path]).standard == ["database is up to date"])
    }

    @Test func theProcessEnvironmentIsRead() {
        setenv("RECENTS_CLI_TEST_VARIABLE", "a=b", 1)
        #expect(CLI.processEnvironment()["RECENTS_CLI_TEST_VARIABLE"] == "a=b")
    }
}
