-- 0004: Idempotency-Key on POST /v1/lists/{list}/calls. Forward only: never edit once shipped.
--
-- One row per (list, key) a client sent in the last 24 hours: the fingerprint (SHA-256, hex) of
-- the request body it came with, and the exact answer it got (status and body bytes), written in
-- the same transaction as the calls it stored, so a retry gets the first answer or, if that write
-- never committed, none (and writes afresh). Keyed by the list's name, not its row id, so a key
-- is recorded even for a request that created nothing. created_at: unix seconds; rows older than
-- 24 hours are ignored by lookups and removed by the background pruner.
CREATE TABLE idempotency_keys (
    list TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status INTEGER NOT NULL,
    body BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (list, key)
) STRICT;

-- The pruner deletes the oldest first.
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
