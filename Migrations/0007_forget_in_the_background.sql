-- 0007: forgetting a list is O(1); its calls go later (issue 42). Forward only: never edit once shipped.
--
-- purge_below: calls of the list created below this version are left over from a forget and wait
-- for the pruner to remove them in small chunks (0: none wait). Reads already ignore them: no
-- call created below forgotten_below is live at any retained version. Deleting a million calls in
-- the forget's own transaction held the one writer for seconds, and every other list with it.
ALTER TABLE lists ADD COLUMN purge_below INTEGER NOT NULL DEFAULT 0;
