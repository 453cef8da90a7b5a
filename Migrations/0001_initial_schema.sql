-- 0001: the initial schema of the store. Forward only: never edit once shipped; add 0002_… instead.
-- Every table is STRICT (https://sqlite.org/stricttables.html) so a wrong type is an error, not a
-- silent conversion.

-- Database-wide facts, e.g. the epoch (a random string fixed when the database is created).
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;

-- One row per list ever written. A list never written has no row and reads as empty at version 0.
-- version: the current version (strictly increasing, never reused).
-- oldest_version: the forget floor: the version created by the last forget (0 if never forgotten).
-- pruned_below: versions below this were pruned; it only matters when the retention window was
--   widened after pruning (with a fixed window it never exceeds version - retainVersions).
-- The oldest retained version is max(oldest_version, pruned_below, version - retainVersions).
-- editing / revealed_row_id: the state at `version`; call_count: live calls at `version`.
CREATE TABLE lists (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    version INTEGER NOT NULL CHECK (version >= 0),
    oldest_version INTEGER NOT NULL CHECK (oldest_version >= 0 AND oldest_version <= version),
    pruned_below INTEGER NOT NULL DEFAULT 0,
    editing INTEGER NOT NULL CHECK (editing IN (0, 1)),
    revealed_row_id TEXT,
    call_count INTEGER NOT NULL CHECK (call_count >= 0)
) STRICT;

-- The list state at each version (one row per version, pruned below the retention horizon).
CREATE TABLE list_versions (
    list_id INTEGER NOT NULL REFERENCES lists (id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    editing INTEGER NOT NULL CHECK (editing IN (0, 1)),
    revealed_row_id TEXT,
    created_at INTEGER NOT NULL, -- unix seconds
    PRIMARY KEY (list_id, version)
) STRICT, WITHOUT ROWID;

-- Immutable call records. A call is live at version V iff
-- created_version <= V AND (deleted_version IS NULL OR deleted_version > V).
CREATE TABLE calls (
    rowid INTEGER PRIMARY KEY,
    list_id INTEGER NOT NULL REFERENCES lists (id) ON DELETE CASCADE,
    call_id TEXT NOT NULL,
    peer_id TEXT NOT NULL,
    peer_name TEXT NOT NULL,
    direction TEXT NOT NULL CHECK (direction IN ('incoming', 'outgoing')),
    end_reason TEXT NOT NULL CHECK (end_reason IN ('hangup', 'missed', 'busy', 'disconnect')),
    video INTEGER NOT NULL CHECK (video IN (0, 1)),
    duration INTEGER NOT NULL,
    timestamp INTEGER NOT NULL,
    missed INTEGER NOT NULL CHECK (missed = (direction = 'incoming' AND end_reason = 'missed')),
    created_version INTEGER NOT NULL,
    deleted_version INTEGER CHECK (deleted_version IS NULL OR deleted_version >= created_version)
) STRICT;

-- An id is unique among a list's live calls (a deleted id may be posted again).
CREATE UNIQUE INDEX calls_live_id ON calls (list_id, call_id) WHERE deleted_version IS NULL;
-- Newest-first views: the index order is the view order (timestamp DESC, call_id DESC; BINARY
-- collation = byte order), so a window of N rows reads about N index entries and never sorts.
-- The version columns are in the index so the liveness test needs no table lookup.
CREATE INDEX calls_view ON calls (list_id, timestamp DESC, call_id DESC, created_version, deleted_version);
CREATE INDEX calls_view_missed ON calls (list_id, missed, timestamp DESC, call_id DESC, created_version, deleted_version);
-- Pruning finds the calls deleted at or before the retention horizon.
CREATE INDEX calls_deleted ON calls (list_id, deleted_version) WHERE deleted_version IS NOT NULL;
