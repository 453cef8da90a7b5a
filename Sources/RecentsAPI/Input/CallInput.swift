import RecentsCore
import RecentsJSON

/// A call as posted: everything validated, the id still optional (the server makes one).
typealias CallDraft = CallRecord<String?>

extension CallRecord where ID == String? {
    /// The stored call this draft becomes under `id`.
    func call(id: String) -> Call { withID(id) }
}

/// Turns a `POST …/calls` body into validated calls, naming every broken member (contract section 1).
enum CallInput {
    /// Most calls one `POST .../calls` may carry.
    static let maximumBatch = 1000

    /// Reads one call at `path` ("" for a single call, "calls[3]" in a batch).
    static func call(_ value: JSONValue, path: String, errors: inout [FieldError]) -> CallDraft? {
        var reader = JSONObjectReader(value, path: path)
        let id = reader.string("id", required: false)
        var nameGiven = false
        let peer: Peer? = reader.object("peer", required: true) { peerReader in
            let peerId = peerReader.string("id", required: true)
            let name = peerReader.string("name", required: false)
            nameGiven = name != nil
            guard let peerId else { return nil }
            return Peer(id: peerId, name: name ?? peerId)
        }
        let direction: CallDirection? = reader.enumeration("direction", required: true)
        let endReason: EndReason? = reader.enumeration("endReason", required: false)
        let video = reader.bool("video", required: false)
        let duration = reader.integer(
            "duration", required: false,
            in: Int64(Call.durationRange.lowerBound)...Int64(Call.durationRange.upperBound))
        let timestamp = reader.integer("timestamp", required: true, in: Call.timestampRange)
        reader.finish()
        var found = reader.errors
        if let peer, let direction {
            // Alphabet and length rules live in Core. They run even when a member above was refused
            // (on a valid stand-in for it), so one answer names every problem; an absent id is the
            // server's to make, and an absent name is the id's, whose own error says what is wrong.
            let draft = CallDraft(
                id: id, peer: peer, direction: direction, endReason: endReason ?? .hangup, video: video ?? false,
                duration: Int(duration ?? 0), timestamp: timestamp ?? Call.timestampRange.lowerBound)
            let rules = draft.call(id: id ?? "x").validationErrors().filter { nameGiven || $0.field != "peer.name" }
            found += rules.map { path.isEmpty ? $0 : $0.prefixed(path) }
            if found.isEmpty, timestamp != nil {
                return draft
            }
        }
        errors.append(contentsOf: found)
        return nil
    }

    /// Reads `POST .../calls`: one call, or `{"calls": [...]}` with 1 to 1000 calls.
    static func postCalls(_ value: JSONValue) throws(APIError) -> [CallDraft] {
        var errors: [FieldError] = []
        var drafts: [CallDraft] = []
        if case .object(let members) = value, members.contains(where: { $0.0 == "calls" }) {
            var reader = JSONObjectReader(value, path: "")
            let list = reader.value("calls")
            reader.finish()
            errors.append(contentsOf: reader.errors)
            guard case .array(let elements)? = list else {
                errors.append(FieldError(field: "calls", message: "must be an array of calls"))
                throw .validationFailed(errors)
            }
            guard (1...maximumBatch).contains(elements.count) else {
                errors.append(FieldError(field: "calls", message: "must hold 1 to \(maximumBatch) calls"))
                throw .validationFailed(errors)
            }
            for (position, element) in elements.enumerated() {
                if let draft = call(element, path: "calls[\(position)]", errors: &errors) {
                    drafts.append(draft)
                }
            }
        } else if let draft = call(value, path: "", errors: &errors) {
            drafts.append(draft)
        }
        if !errors.isEmpty { throw .validationFailed(errors) }
        return drafts
    }
}
