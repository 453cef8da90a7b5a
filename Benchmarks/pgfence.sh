#!/usr/bin/env bash
# Benchmarks/pgfence.sh BIN URI [ROUNDS] [SECONDS]: what the bucket fence costs a write (issue 43,
# item 4). Two `recents serve` on the same PostgreSQL database, one with `--db URI` (no check) and
# one with `--placement` naming that database as its one shard (every write batch sends the bucket
# check with its BEGIN: BucketFence); rounds interleaved, one instance loaded at a time with
# wrk/post.lua at 64 connections (wrk -t2). Per round and instance: acknowledged writes/s and CPU
# per write of the server and of the cluster's processes (postmaster and children, /proc/PID/stat,
# over the wrk window); then the means and the ratios. URI: an empty database
# (scripts/postgres-cluster.sh start).
set -euo pipefail
BIN=$1 URI=$2 ROUNDS=${3:-4} SECS=${4:-10}
cd "$(dirname "$0")/.."
DIR=$(mktemp -d)
free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
printf '{"shards": {"a": "%s"}, "buckets": [{"from": 0, "to": 4095, "shard": "a"}]}\n' "$URI" >"$DIR/placement.json"
PLAIN=$(free_port) FENCED=$(free_port)
"$BIN" serve --db "$URI" --host 127.0.0.1 --port "$PLAIN" --auth none --log-level warn >"$DIR/plain.log" 2>&1 &
PPID1=$!
"$BIN" serve --placement "$DIR/placement.json" --host 127.0.0.1 --port "$FENCED" --auth none --log-level warn \
    >"$DIR/fenced.log" 2>&1 &
PPID2=$!
trap 'kill $PPID1 $PPID2 2>/dev/null || true; rm -rf "$DIR"' EXIT
for port in "$PLAIN" "$FENCED"; do
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
done
DATA=$(psql "$URI" -AtXc 'SHOW data_directory')
PM=$(head -1 "$DATA/postmaster.pid")
ticks() { for p in "$@"; do [[ -r /proc/$p/stat ]] && sed 's/.*) //' /proc/"$p"/stat | awk '{print $12 + $13}'; done | awk '{s+=$1} END{print s+0}'; }
# one NAME PORT PID ROUND: a wrk window on one instance; prints "writes/s recents_us postgres_us".
one() {
    mapfile -t pids < <(echo "$PM"; pgrep -P "$PM")
    local t0r t0p t1r t1p out="$DIR/wrk-$1-$4.txt"
    t0r=$(ticks "$3") t0p=$(ticks "${pids[@]}")
    wrk -t2 -c64 -d"${SECS}s" -s Benchmarks/wrk/post.lua "http://127.0.0.1:$2/" -- "$1$4" >"$out" 2>&1
    t1r=$(ticks "$3") t1p=$(ticks "${pids[@]}")
    sed -n 's/^created=\([0-9]*\) other=\([0-9]*\) duration_us=\([0-9]*\)$/\1 \3/p' "$out" |
        awk -v a=$((t1r - t0r)) -v b=$((t1p - t0p)) -v hz="$(getconf CLK_TCK)" \
            '{printf "%.1f %.1f %.1f\n", $1 / ($2 / 1e6), a / hz / $1 * 1e6, b / hz / $1 * 1e6}'
}
for r in $(seq "$ROUNDS"); do
    plain=$(one plain "$PLAIN" "$PPID1" "$r")
    fenced=$(one fenced "$FENCED" "$PPID2" "$r")
    echo "round $r: --db $plain | --placement $fenced (writes/s, recents us/write, postgres us/write); load $(cut -d' ' -f1 /proc/loadavg)"
    echo "$plain $fenced" >>"$DIR/rounds"
done
awk '{for (i = 1; i <= 6; i++) s[i] += $i; n++}
    END {printf "means over %d rounds: --db %.0f writes/s, %.1f + %.1f us/write; --placement %.0f writes/s, %.1f + %.1f us/write; ratio writes/s %.3f, CPU per write %.3f\n",
        n, s[1]/n, s[2]/n, s[3]/n, s[4]/n, s[5]/n, s[6]/n, s[4]/s[1], (s[5]+s[6])/(s[2]+s[3])}' "$DIR/rounds"
