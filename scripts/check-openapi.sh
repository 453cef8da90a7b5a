#!/usr/bin/env bash
# The OpenAPI document and the server agree: schemathesis (from PyPI, in the venv .venv/, made
# here on first use and reused after) runs every check against the document a live server serves,
# on a fixed seed with a bounded number of examples. Any failure fails this script (and CI).
# scripts/schemathesis.toml says which answers to valid data the contract allows beyond the defaults.
#
# usage: scripts/check-openapi.sh [BINARY]   (default .build/debug/recents)
#
# The server runs with --max-wait 1: the document says a larger `wait` is clamped to the server's
# maximum, so schemathesis's long-polls each hold at most a second and the run stays short.
set -euo pipefail
cd "$(dirname "$0")/.."

bin="${1:-.build/debug/recents}"
schemathesis_version="4.32.5"
venv=".venv"
seed=20261201
examples="${OPENAPI_EXAMPLES:-25}"

[[ -x "$bin" ]] || { echo "check-openapi: no binary at $bin (build first)" >&2; exit 1; }

if ! "$venv/bin/st" --version 2>/dev/null | grep -q " $schemathesis_version\$"; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$schemathesis_version"
fi

tmp="$(mktemp -d)"
server_pid=""
cleanup() {
    if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$tmp"
}
trap cleanup EXIT

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
# Access control on, as a deployment runs it: schemathesis sends an admin token (every list and
# /metrics) and checks for itself that a missing or broken one gets 401. Streams live 1 s.
export RECENTS_AUTH_SECRET="check-openapi-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
token="$("$bin" token --list check --scope admin --ttl 3600)"
"$bin" serve --port "$port" --db "$tmp/openapi.sqlite" --max-wait 1 --sse-max-age 1 --sse-heartbeat 1 \
    --log-level warn 2>"$tmp/server.log" &
server_pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 1 100); do
    curl -fsS "$base/healthz" >/dev/null 2>&1 && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$tmp/server.log" >&2; echo "check-openapi: server died" >&2; exit 1; }
    sleep 0.1
done
curl -fsS "$base/healthz" >/dev/null || { echo "check-openapi: server did not answer" >&2; exit 1; }

status=0
"$venv/bin/st" --no-color --config-file scripts/schemathesis.toml run "$base/v1/openapi.json" --url "$base" \
    --checks all --seed "$seed" --max-examples "$examples" --header "Authorization: Bearer $token" \
    --request-timeout 10 --warnings off || status=$?
if ((status != 0)); then
    echo "check-openapi: schemathesis found disagreements between docs/openapi.json and the server" >&2
    tail -n 20 "$tmp/server.log" >&2 || true
fi
exit "$status"
