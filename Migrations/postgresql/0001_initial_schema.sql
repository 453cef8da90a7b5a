-- 0001 (PostgreSQL): the initial schema of the store, the same model as the SQLite schema after
-- its 0003. Forward only: never edit once shipped; add 0002_… instead.

-- Database-wide facts, e.g. the epoch (a random string fixed when the database is created, so
-- every instance on this database answers the same one).
CREATE TABLE meta (
    key text PRIMARY KEY,
    value text NOT NULL
);

-- One row per list ever written; a list never written has no row and reads as empty at version 0.
-- The row is also the list's write lock: a writer takes it FOR UPDATE before giving the list a
-- new version, so two instances writing one list serialise there and never share a version.
-- forgotten_below: the version the last forget created (0 if never forgotten).
-- pruned_below: versions below this were pruned (matters only after the window was widened).
-- editing / revealed_row_id: the state at `version`; call_count: live calls at `version`.
CREATE TABLE lists (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text COLLATE "C" NOT NULL UNIQUE,
    version bigint NOT NULL CHECK (version >= 0),
    forgotten_below bigint NOT NULL CHECK (forgotten_below >= 0 AND forgotten_below <= version),
    pruned_below bigint NOT NULL DEFAULT 0,
    editing boolean NOT NULL,
    revealed_row_id text,
    call_count bigint NOT NULL CHECK (call_count >= 0)
);

-- The list state where it changed: the state at V is the newest row at or below V.
CREATE TABLE list_versions (
    list_id bigint NOT NULL REFERENCES lists (id) ON DELETE CASCADE,
    version bigint NOT NULL,
    editing boolean NOT NULL,
    revealed_row_id text,
    created_at bigint NOT NULL, -- unix seconds
    PRIMARY KEY (list_id, version)
);

-- Immutable call records. A call is live at version V iff
-- created_version <= V AND (deleted_version IS NULL OR deleted_version > V).
-- call_id uses the "C" collation: ids order byte-wise, as the API's view order requires.
CREATE TABLE calls (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    list_id bigint NOT NULL REFERENCES lists (id) ON DELETE CASCADE,
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

-- An id is unique among a list's live calls (a deleted id may be posted again).
CREATE UNIQUE INDEX calls_live_id ON calls (list_id, call_id) WHERE deleted_version IS NULL;
-- Newest-first views walk this index in order (no sort); the included columns answer the
-- liveness and missed tests from the index alone.
CREATE INDEX calls_view ON calls (list_id, "timestamp" DESC, call_id DESC)
    INCLUDE (created_version, deleted_version, missed);
-- Pruning finds the calls deleted at or before the retention horizon.
CREATE INDEX calls_deleted ON calls (list_id, deleted_version) WHERE deleted_version IS NOT NULL;
