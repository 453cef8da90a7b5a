# shellcheck shell=bash
# Benchmarks/listsize.sh: row group 11 of `Benchmarks/run` (issue 42, goal 6), cost against a
# list's size: rows, a write, "Delete all" (POST …/clear, with its ids and with `Prefer:
# return=minimal`) and forgetting the list (DELETE), at
# LISTSIZE_SMALL and LISTSIZE_LARGE calls seeded with `recents seed`, with another list's worst
# write latency during the clear or the delete (listsize.py's steady writer). On SQLite, and on
# PostgreSQL with --postgres (a cluster of its own, as postgres.sh starts one). Sourced by run;
# the helpers are in lib.sh, the scale (LISTSIZE_SMALL, LISTSIZE_LARGE, LISTSIZE_ROUNDS) in run.
# LISTSIZE_ROUNDS and LISTSIZE_TRAIL (seconds the steady writer goes on after the action, 0.5 by
# default; long enough, it also covers the pruner's background work after a clear or a forget)
# may be set in the environment.

# listsize_round ENGINE SIZE ROUND DB: one server on DB (a SQLite path or a postgresql:// URI), the
# lists `clear` and `delete` seeded with SIZE calls each, then listsize.py on each.
listsize_round() {
    local engine=$1 size=$2 round=$3 db=$4 name="listsize-$1-$2-$3"
    mkdir -p "$TMP/$name"
    PORT=$(free_port)
    # The quota must let the steady writes land on a list seeded to it.
    "$RECENTS" serve --port "$PORT" --db "$db" --log-level warn --max-calls-per-list $((size + 100000)) \
        2>"$TMP/$name/server.log" &
    SERVER=$!
    PIDS+=("$SERVER")
    wait_http "$PORT" "$SERVER" || {
        broken "$name: the server did not start: $(tail -3 "$TMP/$name/server.log")"
        return
    }
    local action prefer
    # `minimal` is the clear with `Prefer: return=minimal` (its reply names no ids).
    for action in clear minimal delete; do
        prefer=()
        [[ $action == minimal ]] && prefer=(--prefer return=minimal)
        seed --list "$action" --calls "$size" --seed "$round" || broken "$name: seed $action"
        jrun "$name-$action" py listsize.py --port "$PORT" --list "$action" --other "other-$action" \
            --action "${action/minimal/clear}" "${prefer[@]}" --reads "$LISTSIZE_READS" --trail "${LISTSIZE_TRAIL:-0.5}"
    done
    stop "$SERVER"
}

# listsize_mean ENGINE SIZE ACTION KEY: the mean of KEY over the rounds' JSON.
listsize_mean() {
    local r values=()
    for ((r = 1; r <= LISTSIZE_ROUNDS; r++)); do
        values+=("$(jget "$TMP/listsize-$1-$2-$r-$3.json" "$4")")
    done
    printf '%s\n' "${values[@]}" | awk '$1 != "n/a" && $1 != "" { s += $1; n++ } END { if (n) printf "%.1f\n", s / n; else print "n/a" }'
}

bench_listsize() {
    local engines=(sqlite) engine size r cluster=""
    if ((POSTGRES)); then
        cluster=$TMP/listsize-pg
        mkdir -p "$cluster" && chmod 755 "$cluster"
        LISTSIZE_PG=$(bash "$ROOT/scripts/postgres-cluster.sh" start "$cluster/c" | tail -1) || broken "listsize: cluster"
        engines+=(postgresql)
    fi
    for engine in "${engines[@]}"; do
        for size in "$LISTSIZE_SMALL" "$LISTSIZE_LARGE"; do
            log "listsize: $engine, lists of $size calls, $LISTSIZE_ROUNDS rounds"
            for ((r = 1; r <= LISTSIZE_ROUNDS; r++)); do
                local db=$TMP/listsize-$engine-$size-$r/db.sqlite
                if [[ $engine == postgresql ]]; then
                    # A fresh schema per round, first on the server's search path.
                    psql "$LISTSIZE_PG" -qc "CREATE SCHEMA listsize_${size}_$r" >/dev/null 2>&1 ||
                        broken "listsize: could not create a PostgreSQL schema"
                    db="$LISTSIZE_PG$([[ $LISTSIZE_PG == *\?* ]] && echo '&' || echo '?')options=-csearch_path%3Dlistsize_${size}_$r"
                fi
                listsize_round "$engine" "$size" "$r" "$db"
            done
            local group="11 List size ($engine)" at="$size calls"
            fig "$group" "rows, one at a time, mean latency, $at" ms "$(listsize_mean "$engine" "$size" clear rows_ms)" n/a — ""
            fig "$group" "rows, one at a time, req/s, $at" req/s "$(listsize_mean "$engine" "$size" clear rows_per_second)" n/a — ""
            fig "$group" "POST one call, mean latency, $at" ms "$(listsize_mean "$engine" "$size" clear write_ms)" n/a — ""
            fig "$group" "POST …/clear, latency to the last byte, $at" ms "$(listsize_mean "$engine" "$size" clear action_ms)" n/a — "le:50"
            fig "$group" "POST …/clear, latency to the head, $at" ms "$(listsize_mean "$engine" "$size" clear action_head_ms)" n/a — ""
            fig "$group" "another list's worst write during the clear, $at" ms \
                "$(listsize_mean "$engine" "$size" clear other_write_max_ms)" n/a — "le:50"
            fig "$group" "another list's p99 write during the clear, $at" ms \
                "$(listsize_mean "$engine" "$size" clear other_write_p99_ms)" n/a — ""
            fig "$group" "POST …/clear with Prefer: return=minimal, latency to the last byte, $at" ms \
                "$(listsize_mean "$engine" "$size" minimal action_ms)" n/a — "le:50"
            fig "$group" "another list's worst write during the minimal clear, $at" ms \
                "$(listsize_mean "$engine" "$size" minimal other_write_max_ms)" n/a — "le:50"
            fig "$group" "DELETE the list, latency, $at" ms "$(listsize_mean "$engine" "$size" delete action_ms)" n/a — "le:50"
            fig "$group" "another list's worst write during the DELETE, $at" ms \
                "$(listsize_mean "$engine" "$size" delete other_write_max_ms)" n/a — "le:50"
        done
    done
    [[ -n $cluster ]] && bash "$ROOT/scripts/postgres-cluster.sh" stop "$cluster/c" >/dev/null 2>&1
    return 0
}
