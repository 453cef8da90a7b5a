import RecentsClient
import RecentsCore
import Testing

/// Checks that a model shows exactly what `GET rows` answers for its view.
func expectModel(
    _ model: ListModel, equals page: RowsPage, _ context: @autoclosure () -> String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(model.version == page.version, "version: \(context())", sourceLocation: sourceLocation)
    #expect(model.epoch == page.epoch, "epoch: \(context())", sourceLocation: sourceLocation)
    #expect(model.view == page.view, "view: \(context())", sourceLocation: sourceLocation)
    #expect(model.rowIds == page.rows.map(\.id), "row ids: \(context())", sourceLocation: sourceLocation)
    #expect(model.rows == page.rows, "rows: \(context())", sourceLocation: sourceLocation)
    #expect(model.editing == page.editing, "editing: \(context())", sourceLocation: sourceLocation)
    #expect(model.revealedRowId == page.revealedRowId, "revealedRowId: \(context())", sourceLocation: sourceLocation)
    #expect(model.hasMore == page.hasMore, "hasMore: \(context())", sourceLocation: sourceLocation)
}

/// Applies an event, expecting the batch update to pass the validator; returns the update.
@discardableResult
func applyValidated(
    _ event: TransitionEvent, to model: inout ListModel, _ context: @autoclosure () -> String,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> BatchUpdate {
    let update = try model.apply(event)
    let violations = BatchUpdateValidator.violations(of: update)
    #expect(violations.isEmpty, "\(violations): \(context())", sourceLocation: sourceLocation)
    #expect(update.numberOfRowsAfter == model.rows.count, "count: \(context())", sourceLocation: sourceLocation)
    return update
}

/// The event, or nil when the server answered 410 `resync-required`.
func resyncOrEvent(
    _ body: () async throws(RecentsClientError) -> TransitionEvent
) async throws(RecentsClientError) -> TransitionEvent? {
    do {
        return try await body()
    } catch {
        if error.problem?.isResyncRequired == true { return nil }
        throw error
    }
}
