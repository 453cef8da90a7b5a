-- The anchor's table for `Benchmarks/run --postgres`: shaped like the store's `calls` table
-- (Migrations/postgresql/0001_initial_schema.sql: the same columns, checks and the two indexes
-- every call insert maintains), so pgbench's single-row INSERT does the work of one Recents call
-- write minus what Recents adds (the list row's lock and version, the NOTIFY, HTTP).
DROP TABLE IF EXISTS bench_calls;
CREATE TABLE bench_calls (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    list_id bigint NOT NULL,
    call_id text COLLATE "C" NOT NULL,
    peer_id text NOT NULL,
    peer_name text NOT NULL,
    direction text NOT NULL CHECK (direction IN ('incoming', 'outgoing')),
    end_reason text NOT NULL CHECK (end_reason IN ('hangup', 'missed', 'busy', 'disconnect')),
    video boolean NOT NULL,
    duration bigint NOT NULL,
    "timestamp" bigint NOT NULL,
    missed boolean NOT NULL CHECK (missed = (direction = 'incoming' AND end_reason = 'missed')),
    created_version bigint NOT NULL,
    deleted_version bigint CHECK (deleted_version IS NULL OR deleted_version >= created_version)
);
CREATE UNIQUE INDEX bench_calls_live_id ON bench_calls (list_id, call_id) WHERE deleted_version IS NULL;
CREATE INDEX bench_calls_view ON bench_calls (list_id, "timestamp" DESC, call_id DESC)
    INCLUDE (created_version, deleted_version, missed);
