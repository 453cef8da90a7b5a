-- 0008 (PostgreSQL): clearing a list ("Delete all") is O(1) in its request (issue 42). Forward only: never edit
-- once shipped.
--
-- list_clears: one row per clear whose calls are not yet marked deleted. A clear at version C
-- hides every call created below C from every version >= C at once; versions below C still see
-- them. The floor at version V is the newest row at or below V (none: 0). The pruner then sets
-- deleted_version = C on the hidden calls in small chunks, oldest clear first (a call gets the
-- first clear above its created_version), and drops the row once none is left: from then on they
-- are ordinary deleted calls. Marking a million calls deleted in the clear's own request held
-- the list's row lock (and the writer) for seconds.
-- lists.cleared_below: the newest such row's version (0: no clear waits), the floor at the
-- list's current version without a lookup.
CREATE TABLE list_clears (
    list_id bigint NOT NULL REFERENCES lists (id) ON DELETE CASCADE,
    version bigint NOT NULL,
    PRIMARY KEY (list_id, version)
);
ALTER TABLE lists ADD COLUMN cleared_below bigint NOT NULL DEFAULT 0;
