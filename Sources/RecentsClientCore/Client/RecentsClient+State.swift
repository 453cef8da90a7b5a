import RecentsCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Whose lists a delete reaches.
public enum DeletionScope: String, Codable, Sendable, Hashable, CaseIterable {
    /// Only this list.
    case me
    /// This list and the same calls in each peer's own list.
    case everyone
}

// Every write takes an optional `Idempotency-Key` (docs/API.md): a retry under the same key and
// body gets the first answer again instead of writing twice. `ListAction`s always send one.
extension RecentsClient {
    /// `PUT …/rows/{rowId}/reveal`: opens (always wins) or closes (only the open row) a row's options.
    @discardableResult
    public func reveal(
        row rowId: String, in list: String, revealed: Bool, idempotencyKey: String? = nil
    ) async throws(RecentsClientError) -> RevealReply {
        struct Body: Encodable { var revealed: Bool }
        let url = try url(["v1", "lists", list, "rows", rowId, "reveal"])
        let request = request("PUT", url, body: try Self.body(Body(revealed: revealed)), key: idempotencyKey)
        return try await send(request, as: RevealReply.self)
    }

    /// `PUT …/editing`: enters or leaves edit mode (leaving also closes the open row).
    @discardableResult
    public func setEditing(
        _ editing: Bool, in list: String, idempotencyKey: String? = nil
    ) async throws(RecentsClientError) -> EditingReply {
        struct Body: Encodable { var editing: Bool }
        let url = try url(["v1", "lists", list, "editing"])
        let request = request("PUT", url, body: try Self.body(Body(editing: editing)), key: idempotencyKey)
        return try await send(request, as: EditingReply.self)
    }

    /// `POST …/seen`: marks the missed calls up to `through` (Unix seconds) seen on every device;
    /// the mark never moves back. The reply carries the badge it leaves.
    @discardableResult
    public func markSeen(
        through: Int64, in list: String, idempotencyKey: String? = nil
    ) async throws(RecentsClientError) -> SeenReply {
        struct Body: Encodable { var through: Int64 }
        let url = try url(["v1", "lists", list, "seen"])
        let request = request("POST", url, body: try Self.body(Body(through: through)), key: idempotencyKey)
        return try await send(request, as: SeenReply.self)
    }

    /// `POST …/rows/{rowId}/gesture`: the release of a horizontal pan; the reply says where the row settles.
    public func gesture(
        _ gesture: Gesture, row rowId: String, in list: String, idempotencyKey: String? = nil
    ) async throws(RecentsClientError) -> GestureReply {
        let url = try url(["v1", "lists", list, "rows", rowId, "gesture"])
        return try await send(
            request("POST", url, body: Self.body(gesture), key: idempotencyKey), as: GestureReply.self)
    }

    /// `POST …/rows/{rowId}/options/{key}`: confirms an option (`delete` removes the row's calls in `view`).
    @discardableResult
    public func confirmOption(
        _ key: String, row rowId: String, in list: String, scope: DeletionScope = .me,
        view: ViewParameters = .default, idempotencyKey: String? = nil
    ) async throws(RecentsClientError) -> DeletionReply {
        struct Body: Encodable { var scope: DeletionScope }
        let url = try url(["v1", "lists", list, "rows", rowId, "options", key], query: view.query)
        let request = request("POST", url, body: try Self.body(Body(scope: scope)), key: idempotencyKey)
        return try await send(request, as: DeletionReply.self)
    }

    /// `POST …/clear`: "Delete all" (`editing` is unchanged).
    @discardableResult
    public func clear(
        _ list: String, scope: DeletionScope = .me, idempotencyKey: String? = nil
    ) async throws(RecentsClientError) -> DeletionReply {
        struct Body: Encodable { var scope: DeletionScope }
        let url = try url(["v1", "lists", list, "clear"])
        let request = request("POST", url, body: try Self.body(Body(scope: scope)), key: idempotencyKey)
        return try await send(request, as: DeletionReply.self)
    }
}
