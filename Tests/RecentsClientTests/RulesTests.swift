import Foundation
import RecentsClient
import RecentsCore
import RecentsTestSupport
import Testing

/// A transport that answers every request from a closure and records what it was asked.
final class CannedTransport: RecentsTransport {
    private let answer: @Sendable (TransportRequest) -> TransportResponse
    private let seen = Locked<[TransportRequest]>([])

    init(_ answer: @escaping @Sendable (TransportRequest) -> TransportResponse) { self.answer = answer }

    /// The requests sent so far.
    var requests: [TransportRequest] { seen.withLock { $0 } }

    func send(_ request: TransportRequest) async throws(RecentsClientError) -> TransportResponse {
        seen.withLock { $0.append(request) }
        return answer(request)
    }

    func stream(_ request: TransportRequest, capacity: Int) -> TransportStream {
        TransportStream(parts: AsyncThrowingStream { $0.finish(throwing: RecentsClientError.transport("no stream")) }) {
        }
    }
}

/// One line of `Tests/Fixtures/gesture-decisions.json`.
struct GestureCase: Decodable {
    var initialOffset: Double
    var offset: Double
    var velocity: Double
    var buttonWidth: Double
    var optionCount: Int
    var outcome: GestureOutcome
    var selectedOptionIndex: Int?
    var settleOffset: Double
}

/// The fixture's rule (published as `/v1/rules`' `gesture`) and its releases.
struct GestureFixture: Decodable {
    var rule: GestureRule
    var cases: [GestureCase]

    static func load() throws -> GestureFixture {
        try JSONDecoder().decode(GestureFixture.self, from: Data(contentsOf: sharedFixture("gesture-decisions.json")))
    }
}

@Suite("GET /v1/rules and local release decisions")
struct RulesTests {
    static let contractBody =
        #"{"gesture": {"buttonWidth": 74, "slowVelocity": 100, "buttonMarginMaxOptions": 2, "#
        + #""fullSwipeMargin": 16}, "rowOptions": [{"key": "delete", "title": "Delete", "destructive": true}], "#
        + #""rows": {"defaultLimit": 50, "maxLimit": 1000}}"#

    /// A client whose server answers `GET /v1/rules` with `body`.
    static func client(rulesBody body: String) -> (RecentsClient, CannedTransport) {
        let transport = CannedTransport { request in
            guard request.method == "GET" && request.url.path == "/v1/rules" else {
                return TransportResponse(status: 404)
            }
            return TransportResponse(
                status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "public, max-age=300")],
                body: Data(body.utf8))
        }
        return (RecentsClient(baseURL: URL(string: "http://recents.test")!, transport: transport), transport)
    }

    @Test func theContractsAnswerDecodesIntoCoresRule() async throws {
        let (client, transport) = Self.client(rulesBody: Self.contractBody)
        let rules = try await client.rules()
        #expect(rules == .telegram)
        #expect(rules.gesture == GestureRule.telegram && rules.rowOptions == [.delete])
        #expect(transport.requests.map(\.method) == ["GET"] && transport.requests.first?.body == nil)
    }

    /// A server from before `rows` was published still decodes; the app falls back to the contract's sizes.
    @Test func anOlderServersRulesDecodeWithoutRows() async throws {
        let older = Self.contractBody.replacingOccurrences(
            of: #", "rows": {"defaultLimit": 50, "maxLimit": 1000}"#, with: "")
        #expect(older != Self.contractBody)
        let rules = try await Self.client(rulesBody: older).0.rules()
        #expect(rules.rows == nil && rules.gesture == GestureRule.telegram)
        #expect((rules.rows ?? .contract) == RecentsRules.telegram.rows)
    }

    @Test func aServerWithoutRulesIsAProblemTheAppFallsBackFrom() async throws {
        let (client, _) = Self.client(rulesBody: Self.contractBody)
        let other = RecentsClient(baseURL: client.baseURL.appendingPathComponent("prefix"), transport: client.transport)
        await #expect(throws: RecentsClientError.self) { _ = try await other.rules() }
    }

    /// Every release of the fixture, through the client's path: the rule as `rules()` reads it
    /// from the server, then `OptimisticListModel.perform(.release)` on a row with the case's
    /// options; the outcome, selected option and settle offset are the fixture's, and the screen
    /// shows the row open exactly when the outcome is `open`.
    @Test func everyFixtureReleaseIsDecidedAsTheServerDecides() async throws {
        let fixture = try GestureFixture.load()
        let ruleJSON = try String(decoding: JSONEncoder().encode(fixture.rule), as: UTF8.self)
        let (client, _) = Self.client(rulesBody: #"{"gesture": \#(ruleJSON), "rowOptions": []}"#)
        let rules = try await client.rules()
        #expect(rules.gesture == fixture.rule)
        #expect(fixture.cases.count == 768)
        for (index, release) in fixture.cases.enumerated() {
            let options = (0..<release.optionCount).map {
                RowOption(key: "o\($0)", title: "Option \($0)", destructive: $0 == release.optionCount - 1)
            }
            var model = OptimisticListModel(list: "alice", rules: rules)
            _ = try model.apply(
                event(from: nil, to: 1, reason: .initial, inserts: [(0, row("c-1", options: options), nil)], count: 1))
            let gesture = Gesture(
                initialOffset: release.initialOffset, offset: release.offset, velocity: release.velocity,
                buttonWidth: release.buttonWidth)
            let performed = model.perform(.release(rowId: "c-1", gesture: gesture))
            let context = "case \(index): \(release)"
            #expect(performed.decision?.outcome == release.outcome, "\(context)")
            #expect(performed.decision?.offset == release.settleOffset, "\(context)")
            #expect(performed.decision?.selectedOptionIndex == release.selectedOptionIndex, "\(context)")
            #expect(performed.selectedOption == release.selectedOptionIndex.map { options[$0] }, "\(context)")
            #expect(performed.action.outcome == release.outcome, "\(context)")
            #expect(model.rows[0].revealed == (release.outcome == .open), "\(context)")
            #expect(BatchUpdateValidator.violations(of: performed.update).isEmpty, "\(context)")
        }
    }
}
