# shellcheck shell=bash
# Benchmarks/shards.sh: what the placement layer (issue 43, `--placement`) costs one instance,
# sourced by Benchmarks/run and run with --postgres (or `--only shards --postgres-only`), which
# provides PIDS, TMP, HERE, ROOT, RECENTS and the scale; log, fig, broken, wrk_cpu, wrk_summary,
# free_port and stop are in lib.sh, pg_start_instance and pg_mean in postgres.sh.
#
# One throwaway cluster with three databases: `one` served as today (`--db`), and `sa` and `sb`
# served as two shards by a second instance (`--placement`, buckets 0-2047 on sa, 2048-4095 on
# sb). The two instances run one at a time, rounds interleaved, so each has the host to itself:
#   - acknowledged POST /calls per s (wrk -t2 -c64, wrk/post.lua: 64 lists, which the hash spreads
#     over both shards), and CPU per write of Recents and of the cluster (the postmaster and its
#     backends): what --placement adds to a write, the bucket fence's check included;
#   - GET rows?limit=20 req/s and server CPU per request on one seeded list.
# Both shards live in one cluster here, so the sharded instance gains no disk or primary: the rows
# show what routing by bucket costs, not what a second primary adds (CAPACITY.md has that).

SHARDS_CLUSTER=""

shards_cleanup() {
    [[ -n $SHARDS_CLUSTER ]] && bash "$ROOT/scripts/postgres-cluster.sh" stop "$SHARDS_CLUSTER" || true
}

# shards_post OUT PORT PID ROUND: wrk/post.lua on one instance; sets SHARDS_RESULT to
# "writes/s recents_us postgres_us writes_per_batch" (CPU per acknowledged write; batches from
# /metrics), or "n/a n/a n/a n/a".
shards_post() {
    local out=$1 port=$2 pid=$3 round=$4 postmaster r0 p0 w0 b0 w1 b1 _
    postmaster=$(head -1 "$SHARDS_CLUSTER/data/postmaster.pid")
    r0=$(cpu_ticks "$pid") p0=$(cpu_ticks "$postmaster")
    read -r w0 b0 _ <<<"$(pg_metrics "$port")"
    wrk -t2 -c64 -d"${PG_SECONDS}s" -s "$HERE/wrk/post.lua" "http://127.0.0.1:$port/" -- "$round" >"$out" 2>&1 ||
        broken "shards: wrk POST $round: $(tail -3 "$out")"
    read -r w1 b1 _ <<<"$(pg_metrics "$port")"
    SHARDS_RESULT=$(sed -n 's/^created=\([0-9]*\) other=\([0-9]*\) duration_us=\([0-9]*\)$/\1 \2 \3/p' "$out" |
        awk -v r=$(($(cpu_ticks "$pid") - r0)) -v p=$(($(cpu_ticks "$postmaster") - p0)) -v hz="$(getconf CLK_TCK)" \
        -v batches=$((b1 - b0)) -v writes=$((w1 - w0)) '
            $2 == 0 && $1 > 0 {
                printf "%.1f %.2f %.2f %.1f\n", $1 / ($3 / 1e6), r / hz / $1 * 1e6, p / hz / $1 * 1e6, batches ? writes / batches : 0
                found = 1
            }
            END { if (!found) print "n/a n/a n/a n/a" }')
    [[ $SHARDS_RESULT != n/a* ]] || broken "shards: POST $round: $(grep -hE 'created=|Non-2xx|Socket' "$out" | tr '\n' ' ')"
}

bench_shards() {
    log "shards: one instance on one database against one on two shards ($PG_ROUNDS x ${PG_SECONDS}s, interleaved)"
    SHARDS_CLUSTER=$TMP/pg-shards
    local uri db
    uri=$(bash "$ROOT/scripts/postgres-cluster.sh" start "$SHARDS_CLUSTER") || {
        broken "shards: the cluster did not start"
        SHARDS_CLUSTER=""
        return
    }
    declare -A uris
    for db in one sa sb; do
        psql -q -v ON_ERROR_STOP=1 -c "CREATE DATABASE $db" "$uri" >/dev/null 2>"$TMP/shards-db.log" || {
            broken "shards: CREATE DATABASE $db: $(tail -2 "$TMP/shards-db.log")"
            return
        }
        uris[$db]=$(sed -E "s#/[A-Za-z0-9_]+(\?|$)#/$db\1#" <<<"$uri")
        "$RECENTS" migrate --db "${uris[$db]}" >/dev/null || {
            broken "shards: recents migrate $db failed"
            return
        }
    done
    local placement=$TMP/placement.json
    printf '{"shards": {"sa": "%s", "sb": "%s"},\n "buckets": [{"from": 0, "to": 2047, "shard": "sa"}, {"from": 2048, "to": 4095, "shard": "sb"}]}\n' \
        "${uris[sa]}" "${uris[sb]}" >"$placement"

    local one_port one_pid two_port two_pid
    pg_start_instance shards-one "${uris[one]}"
    one_port=$PORT one_pid=$SERVER
    mkdir -p "$TMP/shards-two"
    two_port=$(free_port)
    "$RECENTS" serve --port "$two_port" --placement "$placement" --log-level warn "${LIVE_FLAGS[@]}" \
        2>"$TMP/shards-two/server.log" &
    two_pid=$!
    PIDS+=("$two_pid")
    wait_http "$two_port" "$two_pid" || {
        broken "shards: the sharded instance did not start: $(tail -3 "$TMP/shards-two/server.log")"
        return
    }

    local round w r p b one_w=() two_w=() one_cpu=() two_cpu=() one_pg=() two_pg=() one_b=() two_b=()
    for ((round = 1; round <= PG_ROUNDS; round++)); do
        shards_post "$TMP/shards-post-one-$round.txt" "$one_port" "$one_pid" "so$round"
        read -r w r p b <<<"$SHARDS_RESULT"
        one_w+=("$w") one_cpu+=("$r") one_pg+=("$p") one_b+=("$b")
        shards_post "$TMP/shards-post-two-$round.txt" "$two_port" "$two_pid" "st$round"
        read -r w r p b <<<"$SHARDS_RESULT"
        two_w+=("$w") two_cpu+=("$r") two_pg+=("$p") two_b+=("$b")
    done
    fig "7b Shards" "acknowledged POST /calls per s, one instance, 64 lists on two shards (mean of $PG_ROUNDS)" writes/s \
        "$(pg_mean "${two_w[@]}")" "$(pg_mean "${one_w[@]}")" "the same instance on one database (--db), same cluster" "ratio_ge:0.9"
    fig "7b Shards" "Recents CPU per acknowledged write, one instance on two shards" µs \
        "$(pg_mean "${two_cpu[@]}")" "$(pg_mean "${one_cpu[@]}")" "the same instance on one database (--db)" ""
    fig "7b Shards" "PostgreSQL CPU per acknowledged write (postmaster and backends), one instance on two shards" µs \
        "$(pg_mean "${two_pg[@]}")" "$(pg_mean "${one_pg[@]}")" "the same instance on one database (--db)" ""
    fig "7b Shards" "writes per group commit, one instance on two shards (each shard its own writer)" writes \
        "$(pg_mean "${two_b[@]}")" "$(pg_mean "${one_b[@]}")" "the same instance on one database (--db)" ""
    NOTES+=("shards: POST per round, writes/s and µs of Recents + PostgreSQL CPU per write (one database / two shards): $(for ((round = 0; round < PG_ROUNDS; round++)); do
        printf '%s, %s + %s / %s, %s + %s; ' "${one_w[$round]}" "${one_cpu[$round]}" "${one_pg[$round]}" \
            "${two_w[$round]}" "${two_cpu[$round]}" "${two_pg[$round]}"
    done | sed 's/; $//')")

    local path="/v1/lists/shardread/rows?limit=20"
    local port
    for port in "$one_port" "$two_port"; do
        "$RECENTS" seed --port "$port" --now 1764460800 --list shardread --calls "$SEED_CALLS" >/dev/null 2>&1 ||
            broken "shards: seeding the read list on port $port failed"
    done
    for ((round = 1; round <= PG_ROUNDS; round++)); do
        wrk_cpu "$TMP/wrk-shards-one-$round.txt" "$one_pid" "http://127.0.0.1:$one_port$path"
        wrk_cpu "$TMP/wrk-shards-two-$round.txt" "$two_pid" "http://127.0.0.1:$two_port$path"
    done
    local one_rps one_cpu
    wrk_summary "$TMP"/wrk-shards-one-*.txt
    one_rps=$MEAN_RPS one_cpu=$MEAN_CPU
    wrk_summary "$TMP"/wrk-shards-two-*.txt
    fig "7b Shards" "rows?limit=20 req/s, one instance, the list on one of two shards (mean of $PG_ROUNDS)" req/s \
        "$MEAN_RPS" "$one_rps" "the same instance on one database (--db)" "ratio_ge:0.9"
    fig "7b Shards" "rows?limit=20 server CPU per request, one instance on two shards" µs \
        "$MEAN_CPU" "$one_cpu" "the same instance on one database (--db)" "ratio_le:1.1"
    round_notes "shards: rows?limit=20" "one database / two shards" --twin -one- -two- "$TMP"/wrk-shards-one-*.txt
    stop "$two_pid"
    stop "$one_pid"
    shards_cleanup
    SHARDS_CLUSTER=""
}

# causes_shards FIGURE: why a shard row reads as it does, as far as profiling found.
causes_shards() {
    case "$1" in
    *"CPU per acknowledged write"*)
        echo "Batch size, not routing (2026-12-05, the row 'writes per group commit' beside it): the same" \
            "64 connections split over two shards' writers make group commits a third the size (15.8 against" \
            "45.1 writes a batch, 2026-12-05 12:55 UTC), and a batch's fixed cost (BEGIN with its locks and the bucket" \
            "check, COMMIT and its fsync, a NOTIFY) is shared by fewer writes, on both sides. Writes/s holds" \
            "(1.01-1.09x). What routing alone costs a write, one shard against --db on the same database:" \
            "Benchmarks/pgfence.sh (RESULTS.md, Bucket fence). Reads, where no batch is shared, cost 1.06-1.08x."
        ;;
    *) return 1 ;;
    esac
}
