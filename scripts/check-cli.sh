#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# Builds the `recents` binary and checks its command line from the outside: help text, exit
# statuses, flag/env precedence, healthcheck and seed against tiny Python stand-in servers.
# The checks live in scripts/check-cli/, one file per concern (usage, serve, database, client),
# sourced in that order; this file holds what they share.
# The parsing, defaults, help and errors are unit-tested in Tests/RecentsCLITests; this script checks
# the same from outside the process, plus what needs one: exit statuses, signals, real sockets.
# Works against the RecentsApp stub and the real server alike; bounded (every call has a timeout).
# usage: scripts/check-cli.sh [path/to/recents]: checks that binary instead of building one (e.g. an
# older build, to see a check fail).
set -euo pipefail
BIN=""
if [[ -n ${1:-} ]]; then
    BIN="$(realpath "$1")"
fi
cd "$(dirname "$0")/.."

if [[ -z $BIN ]]; then
    swift build --product recents >/dev/null
    BIN="$(swift build --show-bin-path)/recents"
fi

TMP="$(mktemp -d)"
PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    [[ -n "${KEEP_TMP:-}" ]] && echo "kept $TMP" >&2 || rm -rf "$TMP"
}
trap cleanup EXIT

FAILURES=0
CHECKS=0
pass() { CHECKS=$((CHECKS + 1)); }
fail() {
    CHECKS=$((CHECKS + 1))
    FAILURES=$((FAILURES + 1))
    printf 'FAIL: %s\n' "$1" >&2
}

# run NAME CMD... : runs with a timeout, leaves exit status in $RC, output in $TMP/out and $TMP/err.
run() {
    RC=0
    timeout 20 "$@" >"$TMP/out" 2>"$TMP/err" </dev/null || RC=$?
}

expect_rc() { # expect_rc WANT DESCRIPTION
    if [[ $RC == "$1" ]]; then pass; else fail "$2: exit $RC, want $1 (stderr: $(head -c 300 "$TMP/err"))"; fi
}

expect_in() { # expect_in FILE TEXT DESCRIPTION
    if grep -qF -- "$2" "$1"; then pass; else fail "$3: '$2' not in $(basename "$1"): $(head -c 300 "$1")"; fi
}

# start_fake MODE [OUTDIR] : starts scripts/fake-server.py, sets $FAKE_PORT and remembers the PID.
start_fake() {
    local portfile="$TMP/port.$RANDOM$RANDOM"
    python3 scripts/fake-server.py "$1" "$portfile" "${2:-}" &
    PIDS+=("$!")
    local deadline=$((SECONDS + 10))
    until [[ -s $portfile ]]; do
        ((SECONDS < deadline)) || { echo "fake server $1 did not start" >&2; exit 1; }
        sleep 0.05
    done
    FAKE_PORT="$(cat "$portfile")"
}

stop_pid() { # stop_pid PID : SIGTERM, then forget it
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# serve_and_stop LOG ARGS... : starts serve, waits for 'ready' (or exit), sends SIGTERM, expects 0.
serve_and_stop() {
    local log="$1"
    shift
    timeout 30 "$@" >"$TMP/serve.out" 2>"$log" </dev/null &
    local pid=$!
    PIDS+=("$pid")
    local deadline=$((SECONDS + 20))
    while kill -0 "$pid" 2>/dev/null && ! grep -qs 'msg=ready' "$log"; do
        ((SECONDS < deadline)) || break
        sleep 0.05
    done
    kill -TERM "$pid" 2>/dev/null || true
    RC=0
    wait "$pid" || RC=$?
}

# wait_lines FILE N : waits (bounded) until FILE has at least N lines.
wait_lines() {
    local deadline=$((SECONDS + 15))
    until [[ -s $1 && $(wc -l <"$1") -ge $2 ]]; do
        ((SECONDS < deadline)) || return 1
        sleep 0.05
    done
}

# wait_for FILE TEXT : waits (bounded) until FILE holds TEXT.
wait_for() {
    local deadline=$((SECONDS + 15))
    until grep -qsF -- "$2" "$1"; do
        ((SECONDS < deadline)) || return 1
        sleep 0.05
    done
}

# The auth secret of every check that needs one (32 bytes, the shortest allowed).
secret=0123456789abcdef0123456789abcdef

# shellcheck source=check-cli/usage.sh
source scripts/check-cli/usage.sh
# shellcheck source=check-cli/serve.sh
source scripts/check-cli/serve.sh
# shellcheck source=check-cli/database.sh
source scripts/check-cli/database.sh
# shellcheck source=check-cli/client.sh
source scripts/check-cli/client.sh

if ((FAILURES)); then
    printf '%d of %d CLI checks failed\n' "$FAILURES" "$CHECKS" >&2
    exit 1
fi
printf 'all %d CLI checks passed (%ss)\n' "$CHECKS" "$SECONDS"
