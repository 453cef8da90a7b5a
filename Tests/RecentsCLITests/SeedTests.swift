import RecentsAPI
import RecentsCore
import Testing

@testable import RecentsCLI

@Suite struct SeedTests {
    @Test func aBatchIsTheAPIsJSON() throws {
        let calls = DemoHistory.generate(count: 3, seed: 7, now: 1_700_000_000)
        let value = try JSONParser.parse(DemoHistory.json(calls[...]))
        guard case .object(let members) = value, members.map(\.0) == ["calls"],
            case .array(let posted) = members[0].1
        else {
            Issue.record("not {\"calls\": [...]}: \(value)")
            return
        }
        #expect(posted.count == 3)
        guard case .object(let first) = posted[0] else {
            Issue.record("a call is not an object")
            return
        }
        #expect(
            Set(first.map(\.0)) == ["id", "peer", "direction", "endReason", "video", "duration", "timestamp"])
        #expect(first[0].1 == .string("seed-7-1"))
    }

    @Test func namesWithQuotesAndAccentsSurviveTheRoundTrip() throws {
        let name = "Chloé \"C\" \\ end"
        let call = Call(
            id: "x", peer: Peer(id: "p", name: name), direction: .incoming, endReason: .missed, timestamp: 1)
        guard case .object(let body) = try JSONParser.parse(DemoHistory.json([call][...])),
            case .array(let calls) = body[0].1, case .object(let posted) = calls[0],
            case .object(let peer)? = posted.first(where: { $0.0 == "peer" })?.1
        else {
            Issue.record("not the API's shape")
            return
        }
        #expect(peer.first { $0.0 == "name" }?.1 == .string(name))
    }

    @Test func theVersionIsReadFromTheAnswer() {
        #expect(SeedCommand.version(in: Array(#"{"version": 3, "epoch": "e"}"#.utf8)) == 3)
        #expect(SeedCommand.version(in: Array(#"{"version": "3"}"#.utf8)) == nil)
        #expect(SeedCommand.version(in: Array("<html>".utf8)) == nil)
    }

    @Test func theSameSeedGivesTheSameCalls() {
        #expect(
            DemoHistory.generate(count: 50, seed: 3, now: 1_700_000_000)
                == DemoHistory.generate(count: 50, seed: 3, now: 1_700_000_000))
    }
}
