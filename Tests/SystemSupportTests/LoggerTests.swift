import Testing

@testable import SystemSupport

@Suite struct LoggerTests {
    @Test func levelsParseByName() {
        #expect(Logger.Level(string: "WARN") == .warn)
        #expect(Logger.Level(string: "warning") == .warn)
        #expect(Logger.Level(string: "nope") == nil)
        #expect(Logger(level: .warn).isEnabled(.error))
        #expect(!Logger(level: .warn).isEnabled(.info))
    }

    @Test func linesAreLogfmtWithQuotedValues() {
        let line = Logger.format(.info, "hello world", [("k", "a=b"), ("n", "1"), ("e", "")])
        #expect(line.hasSuffix(#" level=info msg="hello world" k="a=b" n=1 e="""# + "\n"))
        #expect(line.hasPrefix("ts="))
    }

    @Test func calendarTimeIsUTC() {
        let time = CalendarTime(utc: 784_111_777)
        #expect(
            [time.year, time.month, time.day, time.hour, time.minute, time.second, time.weekday]
                == [1994, 11, 6, 8, 49, 37, 0])
        #expect(CalendarTime(utc: 0).year == 1970)
    }
}
