import Foundation
import RecentsClient
import RecentsCore
import Testing

/// `Call` and `NewCall` are one Core type (`CallRecord`): the stored call reads and writes the server's
/// `calls` members unchanged, and the post leaves out a nil id instead of sending `null`.
@Suite struct WireTypesTests {
    static let storedJSON =
        #"{"direction":"incoming","duration":0,"endReason":"missed","id":"c-1","#
        + #""peer":{"id":"bob","name":"Bob Lee"},"timestamp":1764460800,"video":false}"#

    static func sortedJSON(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func aServerCallsAnswerRoundTrips() throws {
        let answer = #"{"calls":[\#(Self.storedJSON)],"epoch":"e1","version":1}"#
        let reply = try JSONDecoder().decode(PostCallsReply.self, from: Data(answer.utf8))
        #expect(
            reply.calls == [
                Call(
                    id: "c-1", peer: Peer(id: "bob", name: "Bob Lee"), direction: .incoming, endReason: .missed,
                    timestamp: 1_764_460_800)
            ])
        #expect(try Self.sortedJSON(reply) == answer)
    }

    @Test func aStoredCallNeedsItsId() {
        let withoutId = Self.storedJSON.replacingOccurrences(of: #""id":"c-1","#, with: "")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Call.self, from: Data(withoutId.utf8)) }
    }

    @Test func aPostWithoutIdOmitsItAndSendsTheServersDefaults() throws {
        let post = NewCall(peer: Peer(id: "bob"), direction: .incoming, timestamp: 1_764_460_800)
        #expect(
            try Self.sortedJSON(post)
                == #"{"direction":"incoming","duration":0,"endReason":"hangup","#
                + #""peer":{"id":"bob","name":"bob"},"timestamp":1764460800,"video":false}"#)
        let decoded = try JSONDecoder().decode(NewCall.self, from: Data(try Self.sortedJSON(post).utf8))
        #expect(decoded == post && decoded.id == nil)
    }

    @Test func aRepostOfAStoredCallSendsEveryMember() throws {
        let stored = try JSONDecoder().decode(Call.self, from: Data(Self.storedJSON.utf8))
        let post = NewCall(stored)
        #expect(post.id == "c-1" && post.withID("c-1") == stored)
        #expect(try Self.sortedJSON(post) == Self.storedJSON)
    }
}
