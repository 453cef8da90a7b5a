-- 0002 (PostgreSQL): Idempotency-Key on POST /v1/lists/{list}/calls, the same model as the SQLite
-- migration 0004. Forward only: never edit once shipped.
--
-- One row per (list, key) a client sent in the last 24 hours: the fingerprint (SHA-256, hex) of the
-- request body it came with and the exact answer it got (status and body, our own JSON, so valid
-- UTF-8 text), written in the same transaction as the calls it stored. Keyed by the list's name,
-- so a key is recorded even for a request that created nothing. created_at: unix seconds; rows
-- older than 24 hours are ignored by lookups and removed by the pruner.
CREATE TABLE idempotency_keys (
    list text COLLATE "C" NOT NULL,
    key text COLLATE "C" NOT NULL,
    fingerprint text NOT NULL,
    status integer NOT NULL,
    body text NOT NULL,
    created_at bigint NOT NULL,
    PRIMARY KEY (list, key)
);

-- The pruner deletes the oldest first.
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
