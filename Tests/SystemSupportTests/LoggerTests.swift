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

@Suite struct LogThrottleTests {
    @Test func oneLineASecondForAFailureThatRepeats() {
        let throttle = LogThrottle()
        let start = ContinuousClock.now
        var lines: [Int] = []
        for step in 0..<10 { throttle.note("disk full", now: start + .milliseconds(step * 50)) { lines.append($0) } }
        #expect(lines == [0])
        throttle.note("disk full", now: start + .milliseconds(1100)) { lines.append($0) }
        #expect(lines == [0, 9], "the next line says how many were held back")
        throttle.note("another reason", now: start + .milliseconds(1150)) { lines.append($0) }
        #expect(lines == [0, 9, 0], "a new reason goes out at once")
    }
}
