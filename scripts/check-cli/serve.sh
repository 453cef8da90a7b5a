# shellcheck shell=bash
# Sourced by scripts/check-cli.sh (its helpers, $BIN and $TMP); not run on its own.
# --- serve: flag over env over default, both --flag value and --flag=value ------------------------
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
# It leaves no database file it created, and an existing database where it was.
start_fake health-ok
run "$BIN" serve --port "$FAKE_PORT" --db "$TMP/busy.sqlite"
expect_rc 1 "serve on a port in use"
expect_in "$TMP/err" 'level=error msg="cannot start" error=' "serve on a port in use"
leftovers=("$TMP"/busy.sqlite*)
if [[ ! -e ${leftovers[0]} ]]; then pass; else fail "a failed start left files: ${leftovers[*]}"; fi
run "$BIN" migrate --db "$TMP/kept.sqlite"
run "$BIN" serve --port "$FAKE_PORT" --db "$TMP/kept.sqlite"
expect_rc 1 "serve on a port in use, an existing database"
if [[ -s $TMP/kept.sqlite ]]; then pass; else fail "a failed start removed a database it did not create"; fi

# --- auth: the secure default, the secret's rules, recents token ----------------------------------
auth_port="$(free_port)"
run env -u RECENTS_AUTH_SECRET -u RECENTS_AUTH_SECRET_FILE "$BIN" serve --host 0.0.0.0 --port "$auth_port" \
    --db "$TMP/auth.sqlite"
# A secret missing where one is needed is a usage error, as a short one is: exit 2, before anything starts.
expect_rc 2 "serve on 0.0.0.0 without a secret"
expect_in "$TMP/err" "recents serve: error: anyone on the network could read and delete every list; set RECENTS_AUTH_SECRET or pass --auth none" \
    "the refusal says why"
expect_in "$TMP/err" "run 'recents serve --help'" "the refusal points to the help"
if [[ ! -e $TMP/auth.sqlite ]]; then pass; else fail "the refusal opened the database"; fi
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
printf '%s\n' "$secret" >"$TMP/secret"
run env -u RECENTS_AUTH_SECRET "$BIN" token --list alice
expect_rc 2 "token without a secret"
expect_in "$TMP/err" "recents token: error: no auth secret; set RECENTS_AUTH_SECRET or pass --auth-secret-file" \
    "token without a secret says so"
RECENTS_AUTH_SECRET=short run "$BIN" token --list alice
expect_rc 2 "token with a short secret"
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
