import HTTPServer
import RecentsCore

// Contract section 3: reveal, editing, gestures and options.
extension RecentsService {
    /// `PUT /v1/lists/{list}/rows/{rowId}/reveal`.
    func reveal(_ exchange: Exchange) {
        guard let list = exchange.list, let rowId = exchange.id("rowId") else {
            return exchange.fail(.notFound("no such row"))
        }
        let revealed: Bool
        do throws(APIError) {
            revealed = try RequestBodies.flag(try exchange.requiredJSONBody(), name: "revealed")
        } catch {
            return exchange.fail(error)
        }
        write(exchange, { tx in try ListCommands.reveal(rowId: rowId, revealed: revealed, list: list, tx: tx) }) {
            outcome in
            let change = outcome.value.value
            let body = self.writeReply(version: outcome.versions[list] ?? outcome.value.versionBefore) { json in
                json.comma()
                json.key("revealedRowId")
                json.string(change.state.revealedRowId)
                json.comma()
                json.key("changed")
                json.bool(change.changed)
            }
            exchange.json(200, body)
        }
    }

    /// `PUT /v1/lists/{list}/editing`.
    func setEditing(_ exchange: Exchange) {
        guard let list = exchange.list else { return exchange.fail(.notFound("no such list")) }
        let editing: Bool
        do throws(APIError) {
            editing = try RequestBodies.flag(try exchange.requiredJSONBody(), name: "editing")
        } catch {
            return exchange.fail(error)
        }
        write(exchange, { tx in try ListCommands.setEditing(editing, list: list, tx: tx) }) { outcome in
            let state = outcome.value.value.state
            let body = self.writeReply(version: outcome.versions[list] ?? outcome.value.versionBefore) { json in
                json.comma()
                json.state(state)
            }
            exchange.json(200, body)
        }
    }

    /// `POST /v1/lists/{list}/rows/{rowId}/gesture`: the server decides how a swipe ends.
    func gesture(_ exchange: Exchange) {
        guard let list = exchange.list, let rowId = exchange.id("rowId") else {
            return exchange.fail(.notFound("no such row"))
        }
        let gesture: Gesture
        do throws(APIError) {
            gesture = try RequestBodies.gesture(try exchange.requiredJSONBody())
        } catch {
            return exchange.fail(error)
        }
        write(exchange, { tx in try ListCommands.gesture(gesture, rowId: rowId, list: list, tx: tx) }) { outcome in
            let decision = outcome.value.value
            let body = self.writeReply(version: outcome.versions[list] ?? outcome.value.versionBefore) { json in
                json.comma()
                json.key("outcome")
                json.string(decision.outcome.rawValue)
                json.comma()
                json.key("option")
                if let index = decision.selectedOptionIndex, RowOption.rowOptions.indices.contains(index) {
                    json.option(RowOption.rowOptions[index])
                } else {
                    json.raw("null")
                }
                json.comma()
                json.key("offset")
                json.double(decision.offset)
            }
            exchange.json(200, body)
        }
    }

    /// `POST /v1/lists/{list}/rows/{rowId}/options/{key}`: confirms an option; `delete` removes the row's calls.
    func confirmOption(_ exchange: Exchange) {
        guard let list = exchange.list, let rowId = exchange.id("rowId") else {
            return exchange.fail(.notFound("no such row"))
        }
        let key = exchange.request.pathParameters["key"] ?? ""
        guard RowOption.rowOptions.contains(where: { $0.key == key }) else {
            return exchange.fail(.notFound("rows have no option '\(key)'"))
        }
        let scope: DeleteScope
        let parameters: ViewParameters
        do throws(APIError) {
            parameters = try exchange.query.view()
            scope = try RequestBodies.scope(try exchange.jsonBody(required: false))
        } catch {
            return exchange.fail(error)
        }
        write(
            exchange,
            {
                tx in
                try ListCommands.deleteRow(
                    rowId: rowId, filter: parameters.filter, tz: parameters.tz, scope: scope, list: list, tx: tx)
            }
        ) { outcome in
            exchange.json(
                200, self.deletionReply(outcome.versions[list] ?? outcome.value.versionBefore, outcome.value.value))
        }
    }

    /// `POST /v1/lists/{list}/clear`: "Delete all".
    func clear(_ exchange: Exchange) {
        guard let list = exchange.list else { return exchange.fail(.notFound("no such list")) }
        let scope: DeleteScope
        do throws(APIError) {
            scope = try RequestBodies.scope(try exchange.jsonBody(required: false))
        } catch {
            return exchange.fail(error)
        }
        write(exchange, { tx in try ListCommands.clear(scope: scope, list: list, tx: tx) }) { outcome in
            exchange.json(
                200, self.deletionReply(outcome.versions[list] ?? outcome.value.versionBefore, outcome.value.value))
        }
    }

    private func deletionReply(_ version: Int64, _ deleted: [String]) -> [UInt8] {
        writeReply(version: version) { json in
            json.comma()
            json.key("deletedCallIds")
            json.strings(deleted)
        }
    }
}
