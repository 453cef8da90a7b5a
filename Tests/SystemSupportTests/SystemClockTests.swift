import Glibc
import SystemSupport
import Testing

@Suite struct SystemClockTests {
    @Test func theMonotonicClockNeverGoesBack() {
        var last = SystemClock.monotonicNanoseconds()
        for _ in 0..<1000 {
            let now = SystemClock.monotonicNanoseconds()
            #expect(now >= last)
            last = now
        }
    }

    @Test func theWallClockIsAfter2020() {
        let (seconds, milliseconds) = SystemClock.wallTime()
        #expect(seconds > 1_577_836_800)
        #expect((0..<1000).contains(milliseconds))
        #expect(SystemClock.wallSeconds() >= seconds)
    }

    @Test func durationsConvertToNanoseconds() {
        #expect(SystemClock.nanoseconds(.milliseconds(1500)) == 1_500_000_000)
        #expect(SystemClock.nanoseconds(.seconds(-3)) == 0)
        #expect(SystemClock.nanoseconds(.seconds(Int64.max)) == .max)
    }

    @Test func writeAllWritesEveryByteToAPipe() {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let bytes = Array(0..<200).map { UInt8($0) }
        #expect(bytes.withUnsafeBytes { writeAll(fd: fds[1], $0) } == nil)
        var back = [UInt8](repeating: 0, count: 256)
        let count = back.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
        #expect(Array(back[0..<count]) == bytes)
        #expect(bytes.withUnsafeBytes { writeAll(fd: -1, $0) } == EBADF)
    }

    @Test func errnoReadsAsWords() {
        #expect(SystemError.describe(EADDRINUSE) == "address already in use")
        #expect(SystemError("bind 127.0.0.1:1", code: EACCES).description == "bind 127.0.0.1:1: permission denied")
    }
}
