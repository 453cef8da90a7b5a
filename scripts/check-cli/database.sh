# shellcheck shell=bash
# Sourced by scripts/check-cli.sh (its helpers, $BIN and $TMP); not run on its own.
# --- migrate: idempotent ---------------------------------------------------------------------------
run "$BIN" migrate --db "$TMP/migrate.sqlite"
expect_rc 0 "migrate"
RECENTS_DB="$TMP/migrate.sqlite" run "$BIN" migrate
expect_rc 0 "migrate again via RECENTS_DB"
expect_in "$TMP/out" "database is up to date" "second migrate"

# --- backup: a new file only, never a missing source ----------------------------------------------
run "$BIN" backup --db "$TMP/migrate.sqlite" --to "$TMP/backup.sqlite"
expect_rc 0 "backup"
expect_in "$TMP/out" "backed up $TMP/migrate.sqlite to $TMP/backup.sqlite" "backup"
expect_in "$TMP/err" "backup: copying $TMP/migrate.sqlite" "backup's phase line"
expect_in "$TMP/err" "backup: done in " "backup's closing phase line"
run "$BIN" migrate --db "$TMP/backup.sqlite"
expect_in "$TMP/out" "database is up to date" "the backup opens and carries its migrations"
run "$BIN" backup --db "$TMP/migrate.sqlite" --to "$TMP/backup.sqlite"
expect_rc 1 "backup to an existing file"
expect_in "$TMP/err" "exists; back up to a new file" "backup to an existing file"
RECENTS_DB="$TMP/absent.sqlite" run "$BIN" backup --to "$TMP/backup2.sqlite"
expect_rc 1 "backup of a missing database via RECENTS_DB"
expect_in "$TMP/err" "no database at $TMP/absent.sqlite" "backup of a missing database"
if [[ -e $TMP/absent.sqlite || -e $TMP/backup2.sqlite ]]; then fail "a failed backup left files"; else pass; fi

# --- restores: a backup gets a new epoch on its first open; new-epoch gives one to any other copy ---
# served_epoch DB : serves DB on a free port, prints the epoch (and version) of list l it answers, stops it.
served_epoch() {
    local port
    port="$(free_port)"
    timeout 30 "$BIN" serve --port "$port" --db "$1" --log-level error 2>>"$TMP/restore.log" &
    local pid=$!
    PIDS+=("$pid")
    curl -s --retry 50 --retry-connrefused --retry-delay 0 --retry-max-time 10 "localhost:$port/v1/lists/l" |
        python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["epoch"], d["version"])'
    stop_pid "$pid"
}
post_port="$(free_port)"
timeout 60 "$BIN" serve --port "$post_port" --db "$TMP/live.sqlite" --log-level error 2>>"$TMP/restore.log" &
live=$!
PIDS+=("$live")
until curl -s "localhost:$post_port/healthz" >/dev/null; do sleep 0.05; done
post_call() { # post_call ID : one call to list l of the live server
    local call="{\"id\": \"$1\", \"peer\": {\"id\": \"p\"}, \"direction\": \"incoming\", \"timestamp\": 1764460800}"
    curl -s -X POST "localhost:$post_port/v1/lists/l/calls" -H 'Content-Type: application/json' -d "$call" >/dev/null
}
post_call a
run "$BIN" backup --db "$TMP/live.sqlite" --to "$TMP/live-backup.sqlite"
post_call b
stop_pid "$live"
read -r live_epoch live_version < <(served_epoch "$TMP/live.sqlite")
if [[ $live_version == 2 ]]; then pass; else fail "the live database holds version 2, not $live_version"; fi
for restore in r1 r2; do
    cp "$TMP/live-backup.sqlite" "$TMP/$restore.sqlite"
    read -r "${restore}_epoch" version < <(served_epoch "$TMP/$restore.sqlite")
    if [[ $version == 1 ]]; then pass; else fail "restore $restore: version $version, want the backup's 1"; fi
done
# shellcheck disable=SC2154 # read above through the name "${restore}_epoch"
if [[ $r1_epoch != "$live_epoch" && $r2_epoch != "$live_epoch" && $r1_epoch != "$r2_epoch" ]]; then pass; else
    fail "each restore of a backup gets its own epoch: live $live_epoch, restores $r1_epoch $r2_epoch"
fi
read -r again _ < <(served_epoch "$TMP/r1.sqlite")
if [[ $again == "$r1_epoch" ]]; then pass; else
    fail "a restored database renews its epoch once: $r1_epoch then $again"
fi
# A copy made by other tools (cp of the stopped database) keeps its epoch until new-epoch.
cp "$TMP/live.sqlite" "$TMP/copied.sqlite"
read -r copied _ < <(served_epoch "$TMP/copied.sqlite")
if [[ $copied == "$live_epoch" ]]; then pass; else fail "a plain copy keeps its epoch: $live_epoch, $copied"; fi
run "$BIN" new-epoch --db "$TMP/copied.sqlite"
expect_rc 0 "new-epoch"
expect_in "$TMP/out" "for $TMP/copied.sqlite (was $live_epoch)" "new-epoch names the epoch it replaced"
renewed="$(awk '{ print $3 }' "$TMP/out")"
read -r served _ < <(served_epoch "$TMP/copied.sqlite")
if [[ $served == "$renewed" && $served != "$live_epoch" ]]; then pass; else
    fail "new-epoch: served $served, printed $renewed"
fi
run "$BIN" new-epoch --db "$TMP/nothing.sqlite"
expect_rc 1 "new-epoch of a missing database"
expect_in "$TMP/err" "recents new-epoch: error: no database at $TMP/nothing.sqlite" "new-epoch of a missing database"
if [[ -e $TMP/nothing.sqlite ]]; then fail "new-epoch created a database"; else pass; fi
