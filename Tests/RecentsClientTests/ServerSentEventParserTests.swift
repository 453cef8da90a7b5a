import RecentsClient
import Testing

@Suite("ServerSentEventParser")
struct ServerSentEventParserTests {
    func parse(_ chunks: [String], limit: Int = 1 << 20) throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser(maximumLineBytes: limit, maximumEventBytes: limit)
        return try chunks.flatMap { chunk throws in try parser.feed(Array(chunk.utf8)) }
    }

    @Test func framesTheEventStreamOfTheEventStreamIssue() throws {
        let events = try parse(["id: 6jmb0hzq.5\nevent: transition\ndata: {\"to\":5}\n\n"])
        #expect(events == [ServerSentEvent(type: "transition", data: "{\"to\":5}", lastEventId: "6jmb0hzq.5")])
    }

    @Test func lineEndsMaySplitAcrossChunksAndMix() throws {
        let events = try parse(["event: a\r", "\ndata: 1\r", "\r", "data: 2\r\n\r\n", "data:3\n", "\n"])
        #expect(events.map(\.data) == ["1", "2", "3"])
        #expect(events.map(\.type) == ["a", "message", "message"])
    }

    @Test func commentsAndUnknownFieldsAreIgnored() throws {
        let events = try parse([": keep-alive\n\n", "retry: 10\nfoo: bar\ndata: x\n\n"])
        #expect(events.map(\.data) == ["x"])
    }

    @Test func dataLinesJoinWithLineFeedsAndAnEventWithoutDataIsDropped() throws {
        let events = try parse(["event: resync\n\n", "data: a\ndata\ndata:  b\n\n"])
        #expect(events == [ServerSentEvent(data: "a\n\n b")])
    }

    @Test func anUnfinishedEventIsNotDispatched() throws {
        #expect(try parse(["data: half"]).isEmpty)
    }

    @Test func theLastEventIdPersistsAcrossEvents() throws {
        let events = try parse(["id: 1\ndata: a\n\ndata: b\n\n"])
        #expect(events.map(\.lastEventId) == ["1", "1"])
    }

    @Test func anEndlessLineIsRefused() {
        #expect(throws: ServerSentEventParser.TooLarge.self) {
            try parse([String(repeating: "x", count: 100)], limit: 64)
        }
    }

    @Test func anOversizedEventIsRefused() {
        let lines = Array(repeating: "data: 0123456789\n", count: 10)
        #expect(throws: ServerSentEventParser.TooLarge.self) { try parse(lines, limit: 64) }
    }
}
