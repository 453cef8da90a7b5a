-- 0005 (PostgreSQL): the seen mark of the missed-calls badge (issue 41), the same model as the
-- SQLite migration 0006. Forward only: never edit once shipped.
--
-- seen_through: Unix seconds; missed calls at or before it are seen on every device (0: nothing
-- seen). Kept per version like the rest of the list state; lists holds its current value. A
-- column with a constant default is added without rewriting the table.
ALTER TABLE lists ADD COLUMN seen_through bigint NOT NULL DEFAULT 0;
ALTER TABLE list_versions ADD COLUMN seen_through bigint NOT NULL DEFAULT 0;
