import Testing

@testable import RecentsStore

/// How the connections of one store share their way back to PostgreSQL (issue 24): one try at a
/// time, 100-250 ms apart while they fail, at once after one succeeds, and which server is current.
@Suite struct PGReconnectsTests {
    @Test func oneTryAtATimeAndNoneWithinTheDelayAfterAFailure() {
        let reconnects = PGReconnects(logger: StoreLoggingTests.Lines().logger)
        let start = ContinuousClock.now
        #expect(reconnects.claim(at: start))
        #expect(!reconnects.claim(at: start), "a second connection tried while the first one did")
        reconnects.failed(at: start, delay: .milliseconds(100))
        #expect(!reconnects.claim(at: start + .milliseconds(99)))
        #expect(reconnects.untilNextTry(at: start + .milliseconds(40)) == .milliseconds(60))
        #expect(reconnects.claim(at: start + .milliseconds(100)))
        reconnects.succeeded(server: "127.0.0.1:5432")
        #expect(reconnects.untilNextTry(at: start + .milliseconds(100)) == .zero)
        #expect(reconnects.claim(at: start + .milliseconds(100)), "after a success the others reconnect at once")
    }

    @Test func aFollowerLeavesAnotherConnectionsTryAndDelayAlone() {
        let lines = StoreLoggingTests.Lines()
        let reconnects = PGReconnects(logger: lines.logger)
        reconnects.opened(on: "h1:5432")
        let start = ContinuousClock.now
        #expect(reconnects.claim(at: start))
        reconnects.followed(to: "h2:5432")
        #expect(!reconnects.claim(at: start), "the try in progress is still the other connection's")
        #expect(reconnects.isCurrent("h2:5432"))
        #expect(lines.count("PostgreSQL answers from another server now") == 1)
        reconnects.failed(at: start, delay: .milliseconds(100))
        reconnects.followed(to: "h2:5432")
        #expect(!reconnects.claim(at: start + .milliseconds(50)), "a follower does not cut the delay short")
        #expect(lines.count("PostgreSQL answers from another server now") == 1)
    }

    @Test func theDelayIsBetween100And250MillisecondsAtRandom() {
        let delays = (0..<2000).map { _ in PGReconnects.randomDelay() }
        #expect(delays.allSatisfy { $0 >= .milliseconds(100) && $0 <= .milliseconds(250) })
        #expect(Set(delays).count > 50, "not spread: instances would try in step")
    }

    @Test func aConnectionToAnotherServerIsNoLongerCurrentAndTheMoveIsLoggedOnce() {
        let lines = StoreLoggingTests.Lines()
        let reconnects = PGReconnects(logger: lines.logger)
        #expect(reconnects.isCurrent("h1:5432"), "nothing known yet: any server is current")
        reconnects.opened(on: "h1:5432")
        reconnects.opened(on: "h2:5432")
        #expect(reconnects.isCurrent("h1:5432"), "the first server a connection opened on stays current")
        #expect(!reconnects.isCurrent("h2:5432"))
        #expect(reconnects.claim(at: .now))
        reconnects.succeeded(server: "h1:5432")
        #expect(lines.count("PostgreSQL answers from another server now") == 0)
        #expect(reconnects.claim(at: .now))
        reconnects.succeeded(server: "h2:5432")
        #expect(!reconnects.isCurrent("h1:5432"))
        #expect(reconnects.isCurrent("h2:5432"))
        #expect(lines.count("PostgreSQL answers from another server now") == 1)
        #expect(lines.all.contains { $0.contains("from=h1:5432") && $0.contains("to=h2:5432") })
    }

    @Test func onlyAServerThatIsAwayIsWaitedFor() {
        #expect(StoreError.unavailable("connection refused").isServerAway)
        for error in [
            StoreError.full("disk"), .ioError("io"), .readOnly("ro"), .busy("lock"), .corrupt("x"), .closed,
        ] {
            #expect(!error.isServerAway, "\(error)")
        }
    }
}
