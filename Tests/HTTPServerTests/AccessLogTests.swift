import SystemSupport
import Testing

@testable import HTTPServer

/// The access log's timestamp: formatted whole once a second, only its milliseconds rewritten
/// within the second, it must read as the logger's own every time.
@Suite struct AccessLogTests {
    @Test(arguments: [
        [
            (Int64(1_796_428_800), 5), (1_796_428_800, 987), (1_796_428_800, 40), (1_796_428_801, 0),
            (1_796_428_801, 999),
        ],
        [(Int64(0), 0), (0, 1), (59, 100), (59, 99), (1_796_428_799, 123)],
    ])
    func theTimestampReadsAsTheLoggersAtEveryStep(_ steps: [(Int64, Int)]) {
        var log = AccessLog()
        for (seconds, milliseconds) in steps {
            log.refreshTimestamp(seconds: seconds, milliseconds: milliseconds)
            #expect(
                String(decoding: log.timestamp, as: UTF8.self)
                    == Logger.timestamp(seconds: seconds, milliseconds: milliseconds))
        }
    }
}
