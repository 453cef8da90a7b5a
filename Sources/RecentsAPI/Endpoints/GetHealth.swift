import RecentsJSON
import RecentsStore

/// `GET /healthz`: 200 `ok` when the database answers a read and writes reach the disk, 200
/// `degraded` with the reason when reads work but writes fail for storage, or while the database
/// server is away (PostgreSQL restarting or failing over), 503 when reads fail otherwise.
///
/// Degraded stays 200 because load balancers take a node out on a non-2xx health answer, and
/// this node still serves every read (there is no other writer to send writes to either);
/// monitoring reads the `status` member instead. While the database server is away no node
/// serves anything that needs it, and taking nodes out would only end the event streams and
/// long-polls that wait for it here (issue 24). With several shards, one shard away is
/// `degraded` naming it: the lists on the other shards keep working.
enum GetHealth {
    static func make(_ service: Service) -> Endpoint {
        Endpoint(.GET, "/healthz") { exchange throws(APIError) in
            let store = service.store
            store.probeHealth { result in
                let health: StoreHealth
                switch result {
                case .success(let probed):
                    health = probed
                case .failure(let error):
                    guard let error = error as? StoreError, error.isServerAway, let reason = error.storageProblem else {
                        return exchange.fail(.unavailable("the database does not answer"))
                    }
                    health = .degraded(reason: reason)
                }
                var json = JSONWriter()
                json.raw("{")
                json.key("status")
                switch health {
                case .ok:
                    json.string("ok")
                case .degraded(let reason):
                    json.string("degraded")
                    json.comma()
                    json.key("reason")
                    json.string(reason)
                }
                json.raw("}")
                exchange.json(200, json.bytes)
            }
        }
    }
}
