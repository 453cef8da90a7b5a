-- 0004 (PostgreSQL): idempotency keys kept compactly, and at most so many per list (issue 38), the
-- same model as the SQLite migration 0005. Forward only: never edit once shipped.
--
-- form: how `body` holds the first answer. 0 is the answer's exact bytes, as every row of 0002
-- has it. 1 is what the API rebuilds the answer from, byte for byte, together with the retry's
-- own request (which the fingerprint proves is the same): for POST …/calls, the version and the
-- ids the server made, a few bytes where the answer repeated every call posted.
ALTER TABLE idempotency_keys ADD COLUMN form smallint NOT NULL DEFAULT 0;

-- A list keeps its newest keys only (IdempotentReply.keysPerList); this finds its oldest.
CREATE INDEX idempotency_keys_list_created ON idempotency_keys (list, created_at);
