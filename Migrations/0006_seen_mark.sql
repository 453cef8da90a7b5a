-- 0006: the seen mark of the missed-calls badge (issue 41). Forward only: never edit once shipped.
--
-- seen_through: Unix seconds; missed calls at or before it are seen on every device (0: nothing
-- seen). Part of the list state, so it is kept per version like editing and revealed_row_id (the
-- state at V is the newest list_versions row at or below V), and lists holds its current value.
ALTER TABLE lists ADD COLUMN seen_through INTEGER NOT NULL DEFAULT 0;
ALTER TABLE list_versions ADD COLUMN seen_through INTEGER NOT NULL DEFAULT 0;
