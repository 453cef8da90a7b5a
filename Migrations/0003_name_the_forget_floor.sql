-- 0003: lists.oldest_version becomes lists.forgotten_below. Forward only: never edit once shipped.
--
-- The column never held the oldest version a list answers (that is
-- max(forgotten_below, pruned_below, version - retainVersions), computed per request): it holds
-- the version the last forget created (0 if never forgotten), below which every version was
-- forgotten. Named like pruned_below, its sibling floor. RENAME COLUMN rewrites the CHECK
-- constraint that names it too (https://sqlite.org/lang_altertable.html#altertabrenamecol).
ALTER TABLE lists RENAME COLUMN oldest_version TO forgotten_below;
