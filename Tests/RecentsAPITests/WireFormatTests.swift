import RecentsCore
import Testing

@testable import RecentsAPI

/// The API writes rows byte by byte for speed; they must stay identical to Core's Codable form.
@Suite struct WireFormatTests {
    @Test(arguments: [1, 2, 5])
    func rowBytesMatchCoresEncoding(count: Int) throws {
        let calls = (0..<count).map { n in
            Call(
                id: "c-\(n)", peer: Peer(id: "bob", name: "Bob \"B\" Lee"),
                direction: n % 2 == 0 ? .incoming : .outgoing,
                endReason: .missed, video: false, duration: 10 * n, timestamp: 1_764_460_800 - Int64(n))
        }
        let view = RowBuilder.view(
            calls: calls, state: ListState(editing: true, revealedRowId: "c-0"), parameters: ViewParameters())
        let row = try #require(view.rows.first)
        var writer = JSONWriter()
        writer.row(row)
        #expect(writer.bytes == (try OrderedJSONEncoder().encodeBytes(row)))
    }
}
