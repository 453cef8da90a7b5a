#!/usr/bin/env bash
# Builds the `recents` binary and checks its command line from the outside: help text, exit
# statuses, flag/env precedence, healthcheck and seed against tiny Python stand-in servers.
# The parsing, defaults, help and errors are unit-tested in Tests/RecentsCLITests; this script checks
# the same from outside the process, plus what needs one: exit statuses, signals, real sockets.
# Works against the RecentsApp stub and the real server alike; bounded (every call has a timeout).
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --product recents >/dev/null
BIN="$(swift build --show-bin-path)/recents"

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

# --- help and version ----------------------------------------------------------------------------
for args in "--help" "help" "-h"; do
    run "$BIN" $args
    expect_rc 0 "recents $args"
    expect_in "$TMP/out" "usage: recents <command>" "recents $args"
done
run "$BIN" --version
expect_rc 0 "--version"
expect_in "$TMP/out" "recents " "--version"

serve_flags=(host port db retain-versions cors-origin log-level auth auth-secret-file max-head-bytes max-uri-bytes
    max-body-bytes head-timeout idle-timeout max-connections sse-heartbeat sse-max-age threads readers view-cache-bytes
    max-list-heads max-long-polls max-wait)
for how in "serve --help" "help serve" "serve -h"; do
    # shellcheck disable=SC2086 # word splitting of $how is the point
    run "$BIN" $how
    expect_rc 0 "recents $how"
done
for flag in "${serve_flags[@]}"; do
    expect_in "$TMP/out" "--$flag " "serve --help lists --$flag"
    env_name="RECENTS_$(tr 'a-z-' 'A-Z_' <<<"$flag")"
    expect_in "$TMP/out" "env $env_name," "serve --help lists $env_name"
done
for command in migrate backup healthcheck seed follow token; do
    run "$BIN" "$command" --help
    expect_rc 0 "$command --help"
    expect_in "$TMP/out" "usage: recents $command" "$command --help"
done
expect_in "$TMP/out" "--list NAME" "seed --help lists --list"

# --- usage errors: one line, a pointer to --help, exit 2 -----------------------------------------
run "$BIN"
expect_rc 2 "no command"
run "$BIN" frobnicate
expect_rc 2 "unknown command"
expect_in "$TMP/err" "unknown command 'frobnicate'" "unknown command"
expect_in "$TMP/err" "run 'recents --help'" "unknown command"

bad_serve=(
    "--bogus 1|unknown flag '--bogus'"
    "--port|missing value for '--port'"
    "--port --db x|missing value for '--port'"
    "--port abc|invalid value 'abc' for --port"
    "--port 65536|must be an integer from 0 to 65535"
    "--port=-1|invalid value '-1' for --port"
    "--retain-versions 0|invalid value '0' for --retain-versions"
    "--log-level loud|must be one of debug, info, warn, error"
    "--max-head-bytes 0|invalid value '0' for --max-head-bytes"
    "--max-uri-bytes x|invalid value 'x' for --max-uri-bytes"
    "--max-body-bytes 0|invalid value '0' for --max-body-bytes"
    "--head-timeout 0|invalid value '0' for --head-timeout"
    "--idle-timeout never|invalid value 'never' for --idle-timeout"
    "--max-connections 0|invalid value '0' for --max-connections"
    "--threads -1|invalid value '-1' for --threads"
    "--readers 0|invalid value '0' for --readers"
    "stray|unexpected argument 'stray'"
)
for case in "${bad_serve[@]}"; do
    args="${case%%|*}"
    # shellcheck disable=SC2086 # word splitting of $args is the point
    run "$BIN" serve $args --db "$TMP/never.sqlite"
    expect_rc 2 "serve $args"
    expect_in "$TMP/err" "${case#*|}" "serve $args"
    expect_in "$TMP/err" "run 'recents serve --help'" "serve $args"
    if [[ $(wc -l <"$TMP/err") == 2 ]]; then pass; else fail "serve $args: want 2 stderr lines"; fi
done
RECENTS_PORT=abc run "$BIN" serve --db "$TMP/never.sqlite"
expect_rc 2 "RECENTS_PORT=abc"
expect_in "$TMP/err" "invalid value 'abc' for RECENTS_PORT" "RECENTS_PORT=abc"
RECENTS_LOG_LEVEL=verbose run "$BIN" serve --db "$TMP/never.sqlite"
expect_rc 2 "RECENTS_LOG_LEVEL=verbose"
for args in "healthcheck --port 0" "healthcheck --timeout 0" "healthcheck --nope" "seed --calls 5" \
    "seed --list demo" "seed --list a/b --calls 5" "seed --list demo --calls 0" "migrate --db" "migrate --db=" \
    "backup --db x.sqlite" "backup --to=" "backup --to y --db=" "follow" "follow --list a/b" \
    "follow --list demo --filter some" "follow --list demo --tz 900" "follow --list demo --limit 0" \
    "follow --list demo --json=maybe" "follow --list demo --exit-after 0"; do
    # shellcheck disable=SC2086
    run "$BIN" $args
    expect_rc 2 "$args"
    expect_in "$TMP/err" "run 'recents ${args%% *} --help'" "$args"
done

# --- serve: flag over env over default, both --flag value and --flag=value ------------------------
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
env_port="$(free_port)"
flag_port="$(free_port)"
serve_and_stop "$TMP/serve1.log" env RECENTS_PORT="$env_port" RECENTS_DB="$TMP/env.sqlite" \
    "$BIN" serve --log-level debug
expect_rc 0 "serve with RECENTS_PORT"
expect_in "$TMP/serve1.log" " port=$env_port " "serve takes RECENTS_PORT"
expect_in "$TMP/serve1.log" "msg=ready host=127.0.0.1 port=$env_port db=$TMP/env.sqlite" "listening line"
expect_in "$TMP/serve1.log" 'level=debug msg=configuration' "debug configuration line"

serve_and_stop "$TMP/serve2.log" env RECENTS_PORT="$env_port" RECENTS_LOG_LEVEL=debug RECENTS_READERS=3 \
    "$BIN" serve --port "$flag_port" --db="$TMP/flag.sqlite" --readers=4
expect_rc 0 "serve with --port over RECENTS_PORT"
expect_in "$TMP/serve2.log" "msg=ready host=127.0.0.1 port=$flag_port db=$TMP/flag.sqlite" "--port wins"
expect_in "$TMP/serve2.log" " readers=4" "--readers=4 wins over RECENTS_READERS"

serve_and_stop "$TMP/serve3.log" env RECENTS_LOG_LEVEL=info "$BIN" serve --port "$flag_port" --db "$TMP/flag.sqlite"
expect_rc 0 "serve at info"
if grep -q 'level=debug' "$TMP/serve3.log"; then fail "info level prints debug lines"; else pass; fi
expect_in "$TMP/serve3.log" 'level=info msg=ready' "info level prints ready"

# --- serve: a port in use is a start-up failure, exit 1, logged as a sentence ----------------------
start_fake health-ok
run "$BIN" serve --port "$FAKE_PORT" --db "$TMP/busy.sqlite"
expect_rc 1 "serve on a port in use"
expect_in "$TMP/err" 'level=error msg="cannot start" error=' "serve on a port in use"

# --- auth: the secure default, the secret's rules, recents token ----------------------------------
auth_port="$(free_port)"
run env -u RECENTS_AUTH_SECRET -u RECENTS_AUTH_SECRET_FILE "$BIN" serve --host 0.0.0.0 --port "$auth_port" \
    --db "$TMP/auth.sqlite"
expect_rc 1 "serve on 0.0.0.0 without a secret"
expect_in "$TMP/err" "anyone on the network could read and delete every list; set RECENTS_AUTH_SECRET or pass --auth none" \
    "the refusal says why"
if [[ $(wc -l <"$TMP/err") == 1 ]]; then pass; else fail "the refusal is one line: $(cat "$TMP/err")"; fi
serve_and_stop "$TMP/auth1.log" env -u RECENTS_AUTH_SECRET -u RECENTS_AUTH_SECRET_FILE \
    "$BIN" serve --port "$auth_port" --db "$TMP/auth.sqlite"
expect_rc 0 "serve on loopback without a secret"
expect_in "$TMP/auth1.log" "level=warn msg=\"auth is off" "the loopback warning line"
if [[ $(grep -c 'auth is off' "$TMP/auth1.log") == 1 ]]; then pass; else fail "one warning line"; fi
serve_and_stop "$TMP/auth2.log" env -u RECENTS_AUTH_SECRET "$BIN" serve --host 0.0.0.0 --port "$auth_port" \
    --db "$TMP/auth.sqlite" --auth none
expect_rc 0 "serve on 0.0.0.0 with --auth none"
RECENTS_AUTH_SECRET=short run "$BIN" serve --port "$auth_port" --db "$TMP/auth.sqlite"
expect_rc 2 "a short secret"
expect_in "$TMP/err" "RECENTS_AUTH_SECRET is 5 bytes; an auth secret must be at least 32 bytes" "a short secret says so"
secret=0123456789abcdef0123456789abcdef
printf '%s\n' "$secret" >"$TMP/secret"
run env -u RECENTS_AUTH_SECRET "$BIN" token --list alice
expect_rc 1 "token without a secret"
expect_in "$TMP/err" "no auth secret" "token without a secret says so"
RECENTS_AUTH_SECRET="$secret" run "$BIN" token --list alice --scope "read" --ttl 60
expect_rc 0 "token from RECENTS_AUTH_SECRET"
from_env="$(cat "$TMP/out")"
run env -u RECENTS_AUTH_SECRET "$BIN" token --list alice --scope read --ttl 60 --auth-secret-file "$TMP/secret"
expect_rc 0 "token from --auth-secret-file"
python3 - "$from_env" "$(cat "$TMP/out")" "$secret" <<'PY' && pass || fail "token claims or signature"
import base64, hashlib, hmac, json, sys
for token in sys.argv[1:3]:
    header, payload, signature = token.split(".")
    pad = lambda s: s + "=" * (-len(s) % 4)
    mac = hmac.new(sys.argv[3].encode(), f"{header}.{payload}".encode(), hashlib.sha256).digest()
    assert base64.urlsafe_b64decode(pad(signature)) == mac
    claims = json.loads(base64.urlsafe_b64decode(pad(payload)))
    assert claims["sub"] == "alice" and claims["scope"] == "read" and claims["exp"] - claims["iat"] == 60, claims
PY
RECENTS_AUTH_SECRET="$secret" run "$BIN" token --list alice --scope "read reed"
expect_rc 2 "token with an unknown scope word"
RECENTS_AUTH_SECRET="$secret" run "$BIN" token
expect_rc 2 "token without --list"

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
run "$BIN" migrate --db "$TMP/backup.sqlite"
expect_in "$TMP/out" "database is up to date" "the backup opens and carries its migrations"
run "$BIN" backup --db "$TMP/migrate.sqlite" --to "$TMP/backup.sqlite"
expect_rc 1 "backup to an existing file"
expect_in "$TMP/err" "exists; back up to a new file" "backup to an existing file"
RECENTS_DB="$TMP/absent.sqlite" run "$BIN" backup --to "$TMP/backup2.sqlite"
expect_rc 1 "backup of a missing database via RECENTS_DB"
expect_in "$TMP/err" "no database at $TMP/absent.sqlite" "backup of a missing database"
if [[ -e $TMP/absent.sqlite || -e $TMP/backup2.sqlite ]]; then fail "a failed backup left files"; else pass; fi

# --- healthcheck ------------------------------------------------------------------------------------
run "$BIN" healthcheck --port "$(free_port)" --timeout 2
expect_rc 1 "healthcheck with nothing listening"
expect_in "$TMP/err" "recents healthcheck: unhealthy:" "healthcheck with nothing listening"

start_fake health-ok
run "$BIN" healthcheck --port "$FAKE_PORT"
expect_rc 0 "healthcheck ok (whitespace in JSON)"
RECENTS_HOST=0.0.0.0 RECENTS_PORT="$FAKE_PORT" run "$BIN" healthcheck
expect_rc 0 "healthcheck via RECENTS_HOST=0.0.0.0 and RECENTS_PORT"
RECENTS_PORT=1 run "$BIN" healthcheck --host localhost --port="$FAKE_PORT"
expect_rc 0 "healthcheck --port wins over RECENTS_PORT, localhost resolves"

start_fake health-chunked
run "$BIN" healthcheck --port "$FAKE_PORT"
expect_rc 0 "healthcheck with a chunked answer"

start_fake health-bad
run "$BIN" healthcheck --port "$FAKE_PORT"
expect_rc 1 "healthcheck answered 503"
expect_in "$TMP/err" "answered 503" "healthcheck answered 503"

# --- seed -------------------------------------------------------------------------------------------
mkdir -p "$TMP/rec1" "$TMP/rec2" "$TMP/rec3"
start_fake record "$TMP/rec1"
run "$BIN" seed --list demo --calls 2500 --port "$FAKE_PORT" --seed 7 --now 1700000000
expect_rc 0 "seed 2500 calls"
expect_in "$TMP/out" "seeded 2500 calls into demo (version 3)" "seed output"
python3 - "$TMP/rec1" 7 1700000000 2500 <<'PY' || fail "seed request bodies (see above)"
import collections, json, os, sys
outdir, seed, now, want = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
posts = sorted(f for f in os.listdir(outdir) if f.startswith("post-"))
paths = open(os.path.join(outdir, "paths.txt")).read().split("\n")
assert all(p.startswith("/v1/lists/demo/calls application/json") for p in paths if p), paths
calls = []
for name in posts:
    body = json.load(open(os.path.join(outdir, name)))
    assert list(body) == ["calls"], list(body)
    assert 1 <= len(body["calls"]) <= 1000, len(body["calls"])
    calls += body["calls"]
assert [len(json.load(open(os.path.join(outdir, n)))["calls"]) for n in posts] == [1000, 1000, 500]
assert len(calls) == want
assert [c["id"] for c in calls] == ["seed-%s-%d" % (seed, n) for n in range(1, want + 1)]
keys = {"id", "peer", "direction", "endReason", "video", "duration", "timestamp"}
for c in calls:
    assert set(c) == keys, c
    assert set(c["peer"]) == {"id", "name"} and c["peer"]["name"], c
    assert c["direction"] in ("incoming", "outgoing"), c
    assert c["endReason"] in ("hangup", "missed", "busy", "disconnect"), c
    assert isinstance(c["video"], bool) and type(c["duration"]) is int and type(c["timestamp"]) is int, c
    assert now - 31 * 86400 <= c["timestamp"] <= now, c
    if c["endReason"] in ("missed", "busy"):
        assert c["duration"] == 0, c
    else:
        assert 5 <= c["duration"] <= 3600, c
peers = collections.Counter(c["peer"]["id"] for c in calls)
assert 6 <= len(peers) <= 8, peers
assert sum(c["direction"] == "incoming" and c["endReason"] == "missed" for c in calls) > want // 20
assert sum(c["video"] for c in calls) > want // 20
assert any(c["endReason"] == "busy" for c in calls)
assert any(c["direction"] == "outgoing" for c in calls) and any(c["direction"] == "incoming" for c in calls)
days = {c["timestamp"] // 86400 for c in calls}
assert len(days) >= 28, len(days)
runs = sum(1 for a, b in zip(calls, calls[1:])
           if a["peer"] == b["peer"] and a["timestamp"] // 86400 == b["timestamp"] // 86400)
assert runs > want // 10, runs
PY
pass

start_fake record "$TMP/rec2"
run "$BIN" seed --list=demo --calls=2500 --port="$FAKE_PORT" --seed=7 --now=1700000000
expect_rc 0 "seed again"
if diff -r "$TMP/rec1" "$TMP/rec2" >/dev/null; then pass; else fail "seed is not deterministic for a seed"; fi

start_fake record "$TMP/rec3"
RECENTS_PORT="$FAKE_PORT" run "$BIN" seed --list demo --calls 3 --seed 8 --now 1700000000
expect_rc 0 "seed via RECENTS_PORT"
expect_in "$TMP/out" "seeded 3 calls into demo (version 1)" "small seed output"
if cmp -s "$TMP/rec1/post-0001.json" "$TMP/rec3/post-0001.json"; then fail "another seed, same calls"; else pass; fi

run "$BIN" seed --list frozen --calls 3 --port "$FAKE_PORT"
expect_rc 1 "seed answered 409"
expect_in "$TMP/err" "list frozen is read-only" "seed prints the problem body"

run "$BIN" seed --list demo --calls 3 --port "$(free_port)" --timeout 2
expect_rc 1 "seed with nothing listening"

# --- follow, and seed through the same client, against the real server ----------------------------
# wait_lines FILE N : waits (bounded) until FILE has at least N lines.
wait_lines() {
    local deadline=$((SECONDS + 15))
    until [[ -s $1 && $(wc -l <"$1") -ge $2 ]]; do
        ((SECONDS < deadline)) || return 1
        sleep 0.05
    done
}
follow_port="$(free_port)"
timeout 60 "$BIN" serve --port "$follow_port" --db "$TMP/follow.sqlite" --log-level error 2>"$TMP/follow-serve.log" &
follow_server=$!
PIDS+=("$follow_server")
until curl -s "localhost:$follow_port/healthz" >/dev/null; do sleep 0.05; done
seed_number=10
for sig in INT TERM; do
    seed_number=$((seed_number + 1))
    timeout 30 "$BIN" follow --list demo --port "$follow_port" >"$TMP/follow.$sig" 2>"$TMP/follow.$sig.err" &
    follow_pid=$!
    PIDS+=("$follow_pid")
    wait_lines "$TMP/follow.$sig" 1 || fail "follow printed no initial line"
    run "$BIN" seed --list demo --calls 3 --port "$follow_port" --seed "$seed_number"
    expect_rc 0 "seed through the client into the real server"
    wait_lines "$TMP/follow.$sig" 2 || fail "follow printed no line for the write"
    kill "-$sig" "$follow_pid"
    RC=0
    wait "$follow_pid" || RC=$?
    expect_rc 0 "follow ends cleanly on SIG$sig"
    expect_in "$TMP/follow.$sig" "from=none reason=initial" "follow's first line is the initial load"
    expect_in "$TMP/follow.$sig" "reason=interactiveChanges" "follow prints the write"
done
run "$BIN" follow --list demo --port "$follow_port" --json --exit-after 1 --filter missed --tz 60 --limit 5
expect_rc 0 "follow --json --exit-after 1"
python3 -c 'import json, sys; t = json.loads(open(sys.argv[1]).read()); assert t["reason"] == "initial" and t["list"] == "demo", t' \
    "$TMP/out" && pass || fail "follow --json prints the transition's JSON"
# Nothing listening is transient: follow retries with backoff until it is stopped.
timeout 20 "$BIN" follow --list demo --port "$(free_port)" >"$TMP/follow.none" 2>&1 &
follow_pid=$!
sleep 0.5
kill -INT "$follow_pid"
RC=0
wait "$follow_pid" || RC=$?
expect_rc 0 "follow with nothing listening retries until SIGINT"
stop_pid "$follow_server"

auth_port="$(free_port)"
RECENTS_AUTH_SECRET="$secret" timeout 60 "$BIN" serve --port "$auth_port" --db "$TMP/follow-auth.sqlite" \
    --log-level error 2>/dev/null &
auth_server=$!
PIDS+=("$auth_server")
until curl -s "localhost:$auth_port/healthz" >/dev/null; do sleep 0.05; done
run "$BIN" follow --list demo --port "$auth_port"
expect_rc 1 "follow without a token on an auth-on server"
expect_in "$TMP/err" "401 unauthorized" "follow says the server wants a token"
token="$(RECENTS_AUTH_SECRET="$secret" "$BIN" token --list demo)"
RECENTS_TOKEN="$token" run "$BIN" seed --list demo --calls 2 --port "$auth_port"
expect_rc 0 "seed with RECENTS_TOKEN"
run "$BIN" follow --list demo --port "$auth_port" --token "$token" --exit-after 1
expect_rc 0 "follow with --token"
expect_in "$TMP/out" "version=1 from=none reason=initial" "follow with a token sees the seeded list"
stop_pid "$auth_server"

if ((FAILURES)); then
    printf '%d of %d CLI checks failed\n' "$FAILURES" "$CHECKS" >&2
    exit 1
fi
printf 'all %d CLI checks passed (%ss)\n' "$CHECKS" "$SECONDS"
