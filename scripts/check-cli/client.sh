# shellcheck shell=bash
# Sourced by scripts/check-cli.sh (its helpers, $BIN and $TMP); not run on its own.
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
# In a pipe, progress is one line per phase on stderr (issue 43); stdout keeps only the result.
expect_in "$TMP/err" "seed demo: posting 2500 calls, 1000 a request" "seed's phase line"
expect_in "$TMP/err" "seed demo: posted 2500 calls in " "seed's closing phase line"
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

# On a terminal, the progress line is drawn in place (calls of the total, rate) and erased at the end.
mkdir -p "$TMP/rec4"
start_fake record "$TMP/rec4"
run script -qec "$BIN seed --list demo --calls 2500 --port $FAKE_PORT" /dev/null
expect_rc 0 "seed on a terminal"
expect_in "$TMP/out" "seed demo: 2500 calls of 2500 calls (100%)" "seed's progress line on a terminal"
if grep -q "posting 2500 calls" "$TMP/out"; then fail "a terminal got phase lines"; else pass; fi

run "$BIN" seed --list frozen --calls 3 --port "$FAKE_PORT"
expect_rc 1 "seed answered 409"
expect_in "$TMP/err" "list frozen is read-only" "seed prints the problem body"

run "$BIN" seed --list demo --calls 3 --port "$(free_port)" --timeout 2
expect_rc 1 "seed with nothing listening"

# --- follow, and seed through the same client, against the real server ----------------------------
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
# Nothing listening is transient: follow says so on stderr at each attempt and retries until stopped.
timeout 20 "$BIN" follow --list demo --port "$(free_port)" >"$TMP/follow.none" 2>"$TMP/follow.none.err" &
follow_pid=$!
wait_for "$TMP/follow.none.err" "reconnecting in" || fail "follow with nothing listening said nothing"
kill -INT "$follow_pid"
RC=0
wait "$follow_pid" || RC=$?
expect_rc 0 "follow with nothing listening retries until SIGINT"
expect_in "$TMP/follow.none.err" "recents follow: cannot reach the server (" "follow says why it reconnects"
# The server goes away and comes back on its port: follow says both, then goes on with the list.
timeout 60 "$BIN" follow --list demo --port "$follow_port" >"$TMP/follow.back" 2>"$TMP/follow.back.err" &
follow_pid=$!
PIDS+=("$follow_pid")
wait_lines "$TMP/follow.back" 1 || fail "follow printed no initial line"
stop_pid "$follow_server"
wait_for "$TMP/follow.back.err" "reconnecting in" || fail "follow said nothing while the server was down"
timeout 60 "$BIN" serve --port "$follow_port" --db "$TMP/follow.sqlite" --log-level error 2>>"$TMP/follow-serve.log" &
follow_server=$!
PIDS+=("$follow_server")
wait_for "$TMP/follow.back.err" "recents follow: reconnected" || fail "follow did not say it was back"
run "$BIN" seed --list demo --calls 1 --port "$follow_port" --seed 20
wait_lines "$TMP/follow.back" 2 || fail "follow printed nothing for a write after the server came back"
stop_pid "$follow_pid"
# seed's ids are fixed by --seed: run again on the same list (an hour later), it posts nothing and says so.
run "$BIN" seed --list rerun --calls 30 --port "$follow_port"
expect_in "$TMP/out" "seeded 30 calls into rerun (version 1)" "seed"
run "$BIN" seed --list rerun --calls 30 --port "$follow_port" --now $(($(date +%s) + 3600))
expect_rc 0 "seed run again on the same list"
expect_in "$TMP/out" "seeded 0 calls into rerun (version 1); 30 were there already" "seed run again says so"
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
