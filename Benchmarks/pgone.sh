#!/usr/bin/env bash
# Benchmarks/pgone.sh BIN URI [ROUNDS] [SECONDS]: one `recents serve` on PostgreSQL against
# pgbench's one-row INSERT on the same cluster (docs/CAPACITY.md's one-instance write row; group 7
# of Benchmarks/run measures two instances). Rounds interleaved: wrk/post.lua at 64 connections
# (wrk -t2) to the one instance, then `pgbench -c 64 -j 2` with pgbench/insert.sql. Per round:
# acknowledged writes/s, CPU per write of the server and of the cluster's processes (the
# postmaster and its children, from /proc/PID/stat, over the wrk window), the writes and batches
# from /metrics, and the load average. URI: an empty database (scripts/postgres-cluster.sh start).
set -euo pipefail
BIN=$1 URI=$2 ROUNDS=${3:-3} SECS=${4:-10}
cd "$(dirname "$0")/.."
PORT=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
"$BIN" serve --db "$URI" --host 127.0.0.1 --port "$PORT" --log-level warn >"${TMPDIR:-/tmp}/pgone-serve.log" 2>&1 &
SPID=$!
trap 'kill $SPID 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done
psql "$URI" -qX -f Benchmarks/pgbench/table.sql
DATA=$(psql "$URI" -AtXc 'SHOW data_directory')
PM=$(head -1 "$DATA/postmaster.pid")
ticks() { for p in "$@"; do [[ -r /proc/$p/stat ]] && sed 's/.*) //' /proc/"$p"/stat | awk '{print $12 + $13}'; done | awk '{s+=$1} END{print s+0}'; }
PGB=$(command -v pgbench || find /usr/lib/postgresql/*/bin -name pgbench | tail -n 1)
for r in $(seq "$ROUNDS"); do
  m0=$(curl -s "http://127.0.0.1:$PORT/metrics" | awk '/^recents_writes_total /{w=$2} /^recents_write_batches_total /{b=$2} END{print w, b}')
  mapfile -t pids < <(echo "$PM"; pgrep -P "$PM")
  t0r=$(ticks "$SPID") t0p=$(ticks "${pids[@]}")
  wrk -t2 -c64 -d"${SECS}s" -s Benchmarks/wrk/post.lua "http://127.0.0.1:$PORT/" -- "one$r" > "${TMPDIR:-/tmp}/pgone-wrk-$r.txt" 2>&1
  t1r=$(ticks "$SPID") t1p=$(ticks "${pids[@]}")
  m1=$(curl -s "http://127.0.0.1:$PORT/metrics" | awk '/^recents_writes_total /{w=$2} /^recents_write_batches_total /{b=$2} END{print w, b}')
  rec=$(sed -n 's/^created=\([0-9]*\) other=\([0-9]*\) duration_us=\([0-9]*\)$/\1 \2 \3/p' "${TMPDIR:-/tmp}/pgone-wrk-$r.txt" | awk '{c+=$1; o+=$2; if ($3>us) us=$3} END {printf "%.1f other=%d", c/(us/1e6), o}')
  tps=$("$PGB" -n -c 64 -j 2 -T "$SECS" -f Benchmarks/pgbench/insert.sql "$URI" 2>&1 | awk '/^tps = /{print $3}')
  created=$(sed -n 's/^created=\([0-9]*\).*/\1/p' "${TMPDIR:-/tmp}/pgone-wrk-$r.txt")
  cpu=$(awk -v a=$((t1r-t0r)) -v b=$((t1p-t0p)) -v n="$created" -v hz="$(getconf CLK_TCK)" 'BEGIN{printf "CPU per write: recents %.0f us, postgres %.0f us", a/hz/n*1e6, b/hz/n*1e6}')
  echo "round $r: recents one instance $rec writes/s; $cpu; pgbench $tps TPS; metrics before/after: $m0 / $m1; load $(cut -d' ' -f1-3 /proc/loadavg)"
done
