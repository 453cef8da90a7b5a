import Foundation
import RecentsAPI
import RecentsCore
import RecentsTestSupport
import Testing

/// Several lists, a token of each kind for each, every endpoint with every token: what is refused
/// and what works follow the rules exactly, and the stored data is what a model that saw only the
/// allowed requests holds (issue 10).
@Suite struct IsolationTests {
    enum Kind: CaseIterable { case none, read, write, readWrite, expired, admin }

    struct Token {
        let list: String
        let kind: Kind
        let text: String?

        /// Whether the rules let this token do `access` on `target`.
        func allows(_ target: String, write: Bool) -> (allowed: Bool, status: Int) {
            switch kind {
            case .none, .expired: return (false, 401)
            case .admin: return (true, 200)
            case .read: return (list == target && !write, 403)
            case .write: return (list == target && write, 403)
            case .readWrite: return (list == target, 403)
            }
        }
    }

    enum Operation: CaseIterable {
        case post, getCall, deleteCall, getList, rows, transitions, clear, forget

        /// Whether the rules count it as a write.
        var isWrite: Bool {
            switch self {
            case .post, .deleteCall, .clear, .forget: true
            case .getCall, .getList, .rows, .transitions: false
            }
        }

        /// Its method and its path below the list's (`existing`: a call id, for the call's own path).
        func route(existing: String) -> (method: String, path: String) {
            switch self {
            case .post: ("POST", "/calls")
            case .getCall: ("GET", "/calls/\(existing)")
            case .deleteCall: ("DELETE", "/calls/\(existing)")
            case .getList: ("GET", "")
            case .rows: ("GET", "/rows")
            case .transitions: ("GET", "/transitions")
            case .clear: ("POST", "/clear")
            case .forget: ("DELETE", "")
            }
        }
    }

    @Test(arguments: Backend.available)
    func everyCrossListAccessIsRefusedAndEveryAllowedOneWorks(backend: Backend) throws {
        let seed = testSeed("IsolationTests")
        var random = SplitMix64(seed: seed)
        let server = try TestServer.withAuth(backend)
        let lists = ["a", "ab", "b"]
        var tokens: [Token] = []
        for list in lists {
            for kind in Kind.allCases {
                let text: String? =
                    switch kind {
                    case .none: nil
                    case .read: liveToken(list, .read)
                    case .write: liveToken(list, .write)
                    case .readWrite: liveToken(list)
                    case .expired: liveToken(list, ttl: 10, age: 3600)
                    case .admin: liveToken(list, .admin)
                    }
                tokens.append(Token(list: list, kind: kind, text: text))
            }
        }
        var model: [String: Set<String>] = [:]
        var posted: [String: [String]] = [:]
        var nextId = 0
        for step in 0..<300 {
            let target = lists.randomElement(using: &random) ?? "a"
            let token = tokens.randomElement(using: &random) ?? tokens[0]
            let operation = Operation.allCases.randomElement(using: &random) ?? .rows
            let existing = posted[target, default: []].randomElement(using: &random) ?? "none"
            let headers = token.text.map(bearer) ?? []
            let write = operation.isWrite
            let (method, path) = operation.route(existing: existing)
            var body: String?
            if operation == .post {
                nextId += 1
                let id = "c-\(nextId)"
                body = callJSON(id, peer: "zz", timestamp: 1_000 + nextId)
                if token.allows(target, write: true).allowed {
                    model[target, default: []].insert(id)
                    posted[target, default: []].append(id)
                }
            } else if operation == .clear {
                body = #"{"scope": "me"}"#
            }
            let response = try server.request(method, "/v1/lists/\(target)" + path, body: body, headers: headers)
            let rule = token.allows(target, write: write)
            let context = "step \(step) seed \(seed): \(operation) on \(target) with \(token.kind) for \(token.list)"
            guard rule.allowed else {
                #expect(response.status == rule.status, "\(context)")
                continue
            }
            let inModel = model[target, default: []].contains(existing)
            switch operation {
            case .getCall:
                #expect(response.status == (inModel ? 200 : 404), "\(context)")
            case .deleteCall:
                #expect((response.status == 404) == !inModel, "\(context)")
                model[target, default: []].remove(existing)
            case .clear, .forget:
                #expect(response.status < 300, "\(context)")
                model[target] = []
            default:
                #expect(response.status < 300, "\(context)")
            }
        }
        let admin = bearer(liveToken("ops", .admin))
        for list in lists {
            let info = try server.request("GET", "/v1/lists/\(list)", headers: admin)
            #expect(int(info.json["callCount"]) ?? 0 == model[list, default: []].count, "\(list) seed \(seed)")
            for id in posted[list, default: []] {
                let status = try server.request("GET", "/v1/lists/\(list)/calls/\(id)", headers: admin).status
                #expect(status == (model[list, default: []].contains(id) ? 200 : 404), "\(list)/\(id) seed \(seed)")
            }
        }
    }
}
