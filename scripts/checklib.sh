# shellcheck shell=bash disable=SC2154  # check_name and bin are set by the script that sources this
# scripts/checklib.sh: what the shell checks over throwaway clusters share (check-two-instances.sh,
# check-shards.sh). Source it from the repository's root with `check_name` set. It gives `root`
# (a fresh directory, removed on exit), `pids` (processes killed on exit), `clusters`
# (scripts/postgres-cluster.sh directories stopped on exit; nginx under `root` is stopped too),
# `die MESSAGE` (the failure, with the tail of every log under `root`), `free_port`, and
# `start_instance NAME PORT FLAGS...` (`$bin serve FLAGS` on PORT, waited for; its PID in pid_NAME).
root=$(mktemp -d)
chmod 755 "$root"
pids=()
clusters=()
cleanup() {
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    # Reaped here, so bash does not report each instance as "Killed" on the way out.
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    [[ -f $root/nginx.pid ]] && kill "$(cat "$root/nginx.pid")" 2>/dev/null || true
    for dir in "${clusters[@]}"; do bash scripts/postgres-cluster.sh stop "$dir" || true; done
    rm -rf "$root"
}
trap cleanup EXIT
die() {
    echo "$check_name: FAIL: $1" >&2
    tail -n 5 "$root"/*.log >&2 || true
    exit 1
}
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
start_instance() { # name port flags...
    local name=$1 port=$2
    shift 2
    "$bin" serve "$@" --host 127.0.0.1 --port "$port" --log-level warn >"$root/$name.log" 2>&1 &
    pids+=($!)
    eval "pid_$name=$!"
    for _ in $(seq 100); do
        curl -sf "localhost:$port/healthz" >/dev/null && return 0
        sleep 0.1
    done
    die "instance $name not healthy"
}
