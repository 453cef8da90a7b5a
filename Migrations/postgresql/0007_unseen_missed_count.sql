-- 0007 (PostgreSQL): the missed-calls badge is stored, not counted per read (issue 41), the same
-- model as the SQLite migration 0008. Forward only: never edit once shipped.
--
-- unseen_missed: live missed calls with timestamp > seen_through, kept by every write under the
-- list's row lock (insert, delete, the seen mark moving, forget). lists holds the value at the
-- current version; list_versions holds it where it changed, like the state: the count at V is the
-- newest row at or below V. NULL in a row written before this migration: reads of such a version
-- count the calls instead, so every retained version stays exact.
ALTER TABLE lists ADD COLUMN unseen_missed bigint NOT NULL DEFAULT 0;
ALTER TABLE list_versions ADD COLUMN unseen_missed bigint;
-- One count per list, over the calls_view index's range above the mark.
UPDATE lists SET unseen_missed = (
    SELECT count(*) FROM calls
    WHERE calls.list_id = lists.id AND calls."timestamp" > lists.seen_through AND calls.missed
        AND calls.deleted_version IS NULL AND calls.created_version >= lists.forgotten_below);
-- A row at each list's current version, so that version and every later one read a stored count.
INSERT INTO list_versions (list_id, version, editing, revealed_row_id, seen_through, unseen_missed, created_at)
SELECT id, version, editing, revealed_row_id, seen_through, unseen_missed, extract(epoch FROM now())::bigint
FROM lists
ON CONFLICT (list_id, version) DO UPDATE SET unseen_missed = excluded.unseen_missed;
