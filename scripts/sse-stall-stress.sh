#!/usr/bin/env bash
# Repeats Benchmarks/sse.py's paused reader against one server to catch a stream that never
# catches up after its reader resumes (issue 12). Small, fast rounds make the race windows
# (a write landing while the socket drains, EPOLLOUT during a pending chunk) come up often.
#
#   scripts/sse-stall-stress.sh [RUNS] [WRITES] [PAUSE_S] [RCVBUF]
#
# Found with it (RUNS=3 WRITES=5000 PAUSE=30 IDLE_TIMEOUT=60): the server closed the paused stream
# as idle, since writes the kernel took at once never reset its idle clock (fixed in HTTPServer).
# Needs a built `.build/debug/recents`. Prints one line per run and a summary; a failing run's
# JSON (what arrived, both kernel queues, `ss -tinm` of both ends) is kept in $OUT_DIR.
# Exit status: 1 when any run failed.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-30} WRITES=${2:-300} PAUSE=${3:-1} RCVBUF=${4:-131072}
RECENTS=${RECENTS:-.build/debug/recents}
# The server's idle timeout: a pause longer than it ends in a close (set it low to see one).
IDLE_TIMEOUT=${IDLE_TIMEOUT:-900}
OUT_DIR=${OUT_DIR:-$(mktemp -d /tmp/sse-stall.XXXXXX)}
mkdir -p "$OUT_DIR"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$RECENTS" serve --port "$PORT" --db "$OUT_DIR/db.sqlite" --log-level warn \
    --retain-versions $((4 * WRITES * RUNS)) --sse-heartbeat 3600 --idle-timeout "$IDLE_TIMEOUT" 2>"$OUT_DIR/server.log" &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1',$PORT)).close()" 2>/dev/null && break
    sleep 0.1
done
failed=0
for run in $(seq "$RUNS"); do
    if python3 Benchmarks/sse.py paused --port "$PORT" --pid "$SERVER" --prefix "stall$run" --writes "$WRITES" \
        --pause "$PAUSE" --answer-timeout "${ANSWER_TIMEOUT:-10}" --settle 0.1 --receive-buffer "$RCVBUF" \
        --idle-timeout "$IDLE_TIMEOUT" \
        >"$OUT_DIR/run$run.json"; then
        echo "run $run: ok $(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['events_after_resume'], 'events after resume')" "$OUT_DIR/run$run.json")"
    else
        failed=$((failed + 1))
        echo "run $run: FAILED: $(cat "$OUT_DIR/run$run.json")"
    fi
done
echo "$failed of $RUNS runs failed (writes $WRITES, pause $PAUSE s, receive buffer $RCVBUF; logs in $OUT_DIR)"
((failed == 0))
