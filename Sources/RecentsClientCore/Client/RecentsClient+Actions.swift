import RecentsCore

extension RecentsClient {
    /// Sends one own action under its `Idempotency-Key` (its `id`) and returns the version it landed at.
    ///
    /// The request is rebuilt from the action's stored members, so every resend (after a lost
    /// answer, after a restart) is the same bytes under the same key: a server that already wrote
    /// it replays its first answer instead of writing again.
    public func send(_ action: ListAction) async throws(RecentsClientError) -> WriteReply {
        let list = action.list
        let key = action.id
        switch action.intent {
        case .setEditing(let editing):
            let reply = try await setEditing(editing, in: list, idempotencyKey: key)
            return WriteReply(version: reply.version, epoch: reply.epoch)
        case .reveal(let rowId, let revealed):
            let reply = try await reveal(row: rowId, in: list, revealed: revealed, idempotencyKey: key)
            return WriteReply(version: reply.version, epoch: reply.epoch)
        case .release(let rowId, let gesture):
            let reply = try await self.gesture(gesture, row: rowId, in: list, idempotencyKey: key)
            return WriteReply(version: reply.version, epoch: reply.epoch)
        case .deleteRow(let rowId, let scope):
            let reply = try await confirmOption(
                "delete", row: rowId, in: list, scope: scope, view: action.view, idempotencyKey: key)
            return WriteReply(version: reply.version, epoch: reply.epoch)
        case .clear(let scope):
            let reply = try await clear(list, scope: scope, idempotencyKey: key)
            return WriteReply(version: reply.version, epoch: reply.epoch)
        case .markSeen(let through):
            let reply = try await markSeen(through: through, in: list, idempotencyKey: key)
            return WriteReply(version: reply.version, epoch: reply.epoch)
        }
    }
}
