import RecentsAuth
import RecentsTestSupport
import Testing

@Suite struct AuthSecretTests {
    struct NoSuchFile: Error, CustomStringConvertible {
        var description: String { "No such file or directory" }
    }

    static let text32 = String(repeating: "k", count: 32)

    func load(
        flag: String? = nil, environment: [String: String] = [:], files: [String: String] = [:]
    ) throws(AuthSecretError) -> [UInt8]? {
        try AuthSecret.load(flagFile: flag, environment: environment) { path in
            guard let text = files[path] else { throw NoSuchFile() }
            return Array(text.utf8)
        }?.bytes
    }

    func error(
        flag: String? = nil, environment: [String: String] = [:], files: [String: String] = [:]
    ) -> String? {
        do {
            _ = try load(flag: flag, environment: environment, files: files)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func nothingConfiguredIsNoSecret() throws {
        #expect(try load() == nil)
        // Empty variables count as unset, as everywhere on this command line.
        #expect(try load(environment: ["RECENTS_AUTH_SECRET": "", "RECENTS_AUTH_SECRET_FILE": ""]) == nil)
    }

    @Test func eachSourceIsRead() throws {
        let secret = Array(Self.text32.utf8)
        #expect(try load(environment: ["RECENTS_AUTH_SECRET": Self.text32]) == secret)
        #expect(try load(environment: ["RECENTS_AUTH_SECRET_FILE": "/s"], files: ["/s": Self.text32]) == secret)
        #expect(try load(flag: "/f", files: ["/f": Self.text32]) == secret)
    }

    @Test func theFlagWinsOverTheEnvironment() throws {
        let environment = ["RECENTS_AUTH_SECRET": "env-" + Self.text32, "RECENTS_AUTH_SECRET_FILE": "/e"]
        let files = ["/f": "flag-" + Self.text32, "/e": "file-" + Self.text32]
        #expect(try load(flag: "/f", environment: environment, files: files) == Array(("flag-" + Self.text32).utf8))
    }

    @Test func bothVariablesAreAnError() {
        let environment = ["RECENTS_AUTH_SECRET": Self.text32, "RECENTS_AUTH_SECRET_FILE": "/e"]
        let message = error(environment: environment, files: ["/e": Self.text32])
        #expect(message?.contains("set only one") == true)
    }

    @Test func aShortSecretIsAnErrorThatSaysSo() {
        let short = String(repeating: "k", count: 31)
        let fromValue = error(environment: ["RECENTS_AUTH_SECRET": short])
        #expect(fromValue?.contains("RECENTS_AUTH_SECRET is 31 bytes") == true)
        #expect(fromValue?.contains("at least 32 bytes") == true)
        #expect(fromValue?.contains(short) == false)
        let fromFile = error(flag: "/f", files: ["/f": short])
        #expect(fromFile?.contains("/f (--auth-secret-file) is 31 bytes") == true)
        #expect(error(flag: "/f", files: ["/f": ""])?.contains("is 0 bytes") == true)
    }

    @Test func oneTrailingNewlineOfAFileIsDropped() throws {
        #expect(try load(flag: "/f", files: ["/f": Self.text32 + "\n"]) == Array(Self.text32.utf8))
        #expect(try load(flag: "/f", files: ["/f": Self.text32 + "\r\n"]) == Array(Self.text32.utf8))
        #expect(try load(flag: "/f", files: ["/f": Self.text32 + "\n\n"]) == Array((Self.text32 + "\n").utf8))
        #expect(try load(flag: "/f", files: ["/f": " " + Self.text32 + " "]) == Array((" " + Self.text32 + " ").utf8))
        // 31 characters and a newline are 31 bytes of key: too short.
        #expect(
            error(flag: "/f", files: ["/f": String(repeating: "k", count: 31) + "\n"])?.contains("31 bytes") == true)
        // The variable is taken byte for byte.
        #expect(try load(environment: ["RECENTS_AUTH_SECRET": Self.text32 + "\n"]) == Array((Self.text32 + "\n").utf8))
    }

    @Test func anUnreadableOrOversizedFileIsAnError() {
        let missing = error(environment: ["RECENTS_AUTH_SECRET_FILE": "/nope"])
        #expect(
            missing == "cannot read the auth secret file /nope (RECENTS_AUTH_SECRET_FILE): No such file or directory")
        #expect(error(flag: "", files: [:])?.contains("needs a file path") == true)
        let huge = String(repeating: "k", count: AuthSecret.maximumBytes + 1)
        #expect(error(flag: "/f", files: ["/f": huge])?.contains("over 4096 bytes") == true)
    }

    @Test func theDescriptionNeverShowsTheKey() throws {
        let secret = try AuthSecret(bytes: Array(Self.text32.utf8))
        #expect("\(secret)" == "AuthSecret(32 bytes)")
    }
}
