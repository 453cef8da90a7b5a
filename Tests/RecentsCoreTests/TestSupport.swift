import Foundation
import RecentsCore

/// Builds a call tersely for rule tables.
func makeCall(
    _ id: String, peer: String = "bob", name: String? = nil, at timestamp: Int64,
    _ direction: CallDirection = .incoming, _ endReason: EndReason = .hangup, video: Bool = false, duration: Int = 0
) -> Call {
    Call(
        id: id, peer: Peer(id: peer, name: name ?? peer), direction: direction, endReason: endReason,
        video: video, duration: duration, timestamp: timestamp)
}

/// A missed call (incoming, unanswered).
func missed(_ id: String, peer: String = "bob", at timestamp: Int64, video: Bool = false) -> Call {
    makeCall(id, peer: peer, at: timestamp, .incoming, .missed, video: video)
}

/// The string `member` of Tests/Fixtures/`file` (a JSON object of strings), or "" when the file is
/// missing or malformed, which fails the test comparing with it.
func fixtureMember(_ member: String, of file: String) -> String {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../Fixtures/\(file)")
    let object = try? JSONDecoder().decode([String: String].self, from: Data(contentsOf: url))
    return object?[member] ?? ""
}

/// The property tests' seed: `RECENTS_SEED` when set (to replay a failure), else a fresh one; printed either way.
func propertySeed(_ test: String) -> UInt64 {
    let seed: UInt64
    if let text = ProcessInfo.processInfo.environment["RECENTS_SEED"], let value = UInt64(text) {
        seed = value
    } else {
        seed = UInt64.random(in: 0...UInt64.max)
    }
    print("\(test): RECENTS_SEED=\(seed)")
    return seed
}

/// A sequence that counts how many elements were pulled from it.
final class PullCounter {
    var pulled = 0
}

struct CountingSequence<Base: Sequence>: Sequence {
    let base: Base
    let counter: PullCounter

    struct Iterator: IteratorProtocol {
        var base: Base.Iterator
        let counter: PullCounter

        mutating func next() -> Base.Element? {
            guard let element = base.next() else { return nil }
            counter.pulled += 1
            return element
        }
    }

    func makeIterator() -> Iterator { Iterator(base: base.makeIterator(), counter: counter) }
}

/// The contract's literal application: deletes descending, inserts ascending, then updates replace.
func literalApply<Element, ID>(_ diff: ListDiff<ID>, to old: [Element], new: [Element]) -> [Element] {
    var result = old
    for delete in diff.deletes.reversed() { result.remove(at: delete.index) }
    for insert in diff.inserts { result.insert(new[insert.index], at: insert.index) }
    for update in diff.updates { result[update.index] = new[update.index] }
    return result
}

/// The length of a longest strictly increasing subsequence, the slow obvious way (reference).
func referenceLISLength(_ values: [Int]) -> Int {
    var best = [Int](repeating: 1, count: values.count)
    for i in values.indices {
        for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
    }
    return best.max() ?? 0
}

/// A small identified value for diff tests.
struct Item: Identifiable, Equatable, Sendable, CustomStringConvertible {
    var id: String
    var value: Int = 0

    var description: String { "\(id)=\(value)" }
}

/// Items named by the letters of `text`, values 0.
func items(_ text: String) -> [Item] { text.map { Item(id: String($0)) } }

/// Decodes the wire's JSON text with Foundation (what a Swift client does).
func decodeJSON<Value: Decodable>(_ type: Value.Type, _ text: String) throws -> Value {
    try JSONDecoder().decode(type, from: Data(text.utf8))
}
