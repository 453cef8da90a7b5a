# shellcheck shell=bash
# Sourced by scripts/check-cli.sh (its helpers, $BIN and $TMP); not run on its own.
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
for command in serve migrate backup new-epoch healthcheck seed follow token; do
    run "$BIN" "$command" --help
    expect_rc 0 "$command --help"
    expect_in "$TMP/out" "usage: recents $command" "$command --help"
    # Two columns: each flag's help starts where every other's does (also after --compression-threshold BYTES).
    columns="$(awk '/^  --/ { match($0, /^  [^ ]+( [^ ]+)? +/); print RLENGTH }' "$TMP/out" | sort -u)"
    if [[ $(wc -l <<<"$columns") == 1 ]]; then pass; else fail "$command --help: help starts at columns $columns"; fi
done
expect_in "$TMP/out" "lifetime in seconds, 1..31622400 (366 days)" "token --help states the --ttl range"
run "$BIN" seed --help
expect_in "$TMP/out" "--list NAME" "seed --help lists --list"
run "$BIN" --help
expect_in "$TMP/out" "exit status: 0 ok; 1 when the work fails" "the help states the exit statuses"
expect_in "$TMP/out" "2 on a usage error" "the help states the exit statuses"

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
    "backup --db x.sqlite" "backup --to=" "backup --to y --db=" "new-epoch --db" "new-epoch stray" "follow" \
    "follow --list a/b" \
    "follow --list demo --filter some" "follow --list demo --tz 900" "follow --list demo --limit 0" \
    "follow --list demo --json=maybe" "follow --list demo --exit-after 0"; do
    # shellcheck disable=SC2086
    run "$BIN" $args
    expect_rc 2 "$args"
    expect_in "$TMP/err" "run 'recents ${args%% *} --help'" "$args"
done
