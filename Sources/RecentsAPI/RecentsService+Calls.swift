import HTTPServer
import RecentsCore
import RecentsStore

// Contract section 1: calls and lists.
extension RecentsService {
    /// `POST /v1/lists/{list}/calls`: one call or a batch, all in one version; 201, or 200 when nothing changed.
    func postCalls(_ exchange: Exchange) {
        guard let list = exchange.list else { return exchange.fail(.notFound("no such list")) }
        let drafts: [CallDraft]
        do throws(APIError) {
            drafts = try RequestBodies.postCalls(try exchange.requiredJSONBody())
        } catch {
            return exchange.fail(error)
        }
        write(exchange, { tx in try ListCommands.postCalls(drafts, list: list, tx: tx) }) { outcome in
            let version = outcome.versions[list] ?? outcome.value.versionBefore
            let body = self.writeReply(version: version) { json in
                json.comma()
                json.key("calls")
                json.raw("[")
                for (position, call) in outcome.value.calls.enumerated() {
                    if position > 0 { json.comma() }
                    json.call(call)
                }
                json.raw("]")
            }
            exchange.json(outcome.versions[list] == nil ? 200 : 201, body)
        }
    }

    /// `GET /v1/lists/{list}/calls/{callId}`.
    func getCall(_ exchange: Exchange) {
        guard let list = exchange.list, let id = exchange.id("callId") else {
            return exchange.fail(.notFound("no such call"))
        }
        read(exchange, { tx in try tx.call(id, in: list) }) { call in
            guard let call else { return exchange.fail(.notFound("no call '\(id)' in list '\(list)'")) }
            var json = JSONWriter()
            json.call(call)
            exchange.json(200, json.bytes)
        }
    }

    /// `DELETE /v1/lists/{list}/calls/{callId}`.
    func deleteCall(_ exchange: Exchange) {
        guard let list = exchange.list, let id = exchange.id("callId") else {
            return exchange.fail(.notFound("no such call"))
        }
        write(exchange, { tx in try ListCommands.deleteCall(id, list: list, tx: tx) }) { outcome in
            exchange.json(200, self.writeReply(version: outcome.versions[list] ?? outcome.value))
        }
    }

    /// `GET /v1/lists/{list}`.
    func getList(_ exchange: Exchange) {
        guard let list = exchange.list else { return exchange.fail(.notFound("no such list")) }
        let epoch = epoch
        read(exchange, { tx in try ListReads.list(list, epoch: epoch, tx: tx) }) { answer in
            self.heads.observe(list, version: answer.version)
            exchange.json(200, answer.body)
        }
    }

    /// `DELETE /v1/lists/{list}`: forget calls, state and history, as a new version.
    func forgetList(_ exchange: Exchange) {
        guard let list = exchange.list else { return exchange.fail(.notFound("no such list")) }
        write(exchange, { tx in try ListCommands.forgetList(list, tx: tx) }) { outcome in
            exchange.json(200, self.writeReply(version: outcome.versions[list] ?? outcome.value))
        }
    }
}
