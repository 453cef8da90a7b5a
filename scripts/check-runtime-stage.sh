#!/usr/bin/env bash
# Reproduces the Dockerfile's runtime stage without Docker (none runs on the build machines):
#   1. builds from a copy of the Docker build context (the .dockerignore allowlist) with the
#      Dockerfile's exact command, so a context that lacks a needed folder fails here too;
#   2. checks the binary needs no shared library that debian:bookworm-slim + libsqlite3-0 + libssl3
#      + libpq5 + zlib1g + libbrotli1 lacks;
#   3. copies ONLY the binary (all the runtime stage gets) into an empty folder and starts it
#      from another working directory, with an environment as bare as the container's;
#   4. waits (deadline 20 s) until its own `healthcheck` passes, sends SIGTERM (what
#      `docker stop` sends PID 1) and expects exit status 0 within 5 s and a database in the volume.
# First run: a full release build (minutes); later runs reuse .build/runtime-stage.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"

TMP="$(mktemp -d)"
SERVER_PID=""
cleanup() {
    if [[ -n $SERVER_PID ]]; then
        kill -KILL "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$TMP"
}
trap cleanup EXIT
die() {
    printf 'check-runtime-stage: FAIL: %s\n' "$1" >&2
    if [[ -s $TMP/server.log ]]; then
        echo "--- server stderr ---" >&2
        tail -n 20 "$TMP/server.log" >&2
    fi
    exit 1
}

# --- 1. build stage --------------------------------------------------------------------------
# Mirrors .dockerignore: the manifest, the folders it names, Migrations/, Plugins/ and Web/ if present,
# and the embedded files outside them.
context="$TMP/context"
mkdir -p "$context"
cp Package.swift "$context/"
[[ -f Package.resolved ]] && cp Package.resolved "$context/"
for dir in Sources Tests Benchmarks Migrations Plugins Web; do
    [[ -d $dir ]] && cp -R "$dir" "$context/"
done
# Files the EmbedFiles plugin compiles in (the .dockerignore allowlist names them too).
mkdir -p "$context/docs"
cp docs/openapi.json "$context/docs/"
rm -rf "$context/Benchmarks/out"
find "$context" \( -name .build -o -name '__pycache__' \) -prune -exec rm -rf {} +
find "$context" -name '*.sqlite*' -delete

echo "building (swift build -c release --product recents --static-swift-stdlib) ..."
scratch="$repo/.build/runtime-stage"
(cd "$context" && swift build -c release --product recents --static-swift-stdlib --scratch-path "$scratch") \
    >"$TMP/build.log" 2>&1 || { tail -n 30 "$TMP/build.log" >&2; die "release build failed"; }
built="$(cd "$context" && swift build -c release --show-bin-path --scratch-path "$scratch")/recents"

# --- 2. shared libraries -----------------------------------------------------------------------
# What bookworm-slim ships (glibc, libstdc++ and libgcc_s, both needed by apt) plus libsqlite3-0,
# libssl3 (libcrypto.so.3; libssl.so.3 is allowed too, as the same package ships it), zlib1g (libz.so.1)
# and libbrotli1 (libbrotlienc, libbrotlidec and the libbrotlicommon they share). libpq5 and what
# it pulls in (TLS, Kerberos, LDAP) stay allowed, though the binary now loads libpq with dlopen only
# for a postgresql:// database; the check after this one proves it is not linked.
pq='libpq\.so\.5|libgssapi_krb5\.so\.2|libldap-2\.5\.so\.0|libkrb5\.so\.3|libk5crypto\.so\.3|libcom_err\.so\.2|libkrb5support\.so\.0|liblber-2\.5\.so\.0|libsasl2\.so\.2|libgnutls\.so\.30|libkeyutils\.so\.1|libresolv\.so\.2|libp11-kit\.so\.0|libidn2\.so\.0|libunistring\.so\.2|libtasn1\.so\.6|libnettle\.so\.8|libhogweed\.so\.6|libgmp\.so\.10|libffi\.so\.8'
allowed='^('"$pq"'|linux-vdso\.so\.1|libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|libutil\.so\.1|libstdc\+\+\.so\.6|libgcc_s\.so\.1|libsqlite3\.so\.0|libcrypto\.so\.3|libssl\.so\.3|libz\.so\.1|libbrotlienc\.so\.1|libbrotlidec\.so\.1|libbrotlicommon\.so\.1|/lib64/ld-linux-x86-64\.so\.2|/lib/ld-linux-aarch64\.so\.1|ld-linux-aarch64\.so\.1)$'
ldd "$built" | awk '{print $1}' >"$TMP/libs"
if unexpected="$(grep -Ev "$allowed" "$TMP/libs")"; then
    die "the binary needs libraries the runtime image lacks: $(tr '\n' ' ' <<<"$unexpected")"
fi
if grep -q 'libpq' "$TMP/libs"; then die "the binary links libpq; it must load it only for PostgreSQL (Sources/CLibPQ)"; fi
if ldd "$built" | grep -q 'not found'; then die "unresolved libraries: $(ldd "$built" | grep 'not found')"; fi

# --- 3. runtime stage ------------------------------------------------------------------------------
image="$TMP/image"
mkdir -p "$image/usr/local/bin" "$TMP/data" "$TMP/workdir"
cp "$built" "$image/usr/local/bin/recents"
bin="$image/usr/local/bin/recents"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"

cd "$TMP/workdir"
started=$SECONDS
# env -i: no LD_LIBRARY_PATH or toolchain PATH that the container would not have.
env -i PATH=/usr/local/bin:/usr/bin:/bin RECENTS_DB="$TMP/data/recents.sqlite" \
    "$bin" serve --host 127.0.0.1 --port "$port" >"$TMP/server.out" 2>"$TMP/server.log" &
SERVER_PID=$!

# --- 4. healthy, then SIGTERM ----------------------------------------------------------------------
deadline=$((SECONDS + 20))
until env -i PATH=/usr/bin:/bin "$bin" healthcheck --port "$port" --timeout 2 2>"$TMP/health.log"; do
    kill -0 "$SERVER_PID" 2>/dev/null || die "server exited before becoming healthy"
    ((SECONDS < deadline)) || die "not healthy within 20 s: $(cat "$TMP/health.log")"
    sleep 0.2
done
echo "healthy on port $port $((SECONDS - started))s after start"
# The document is compiled in: the binary alone serves docs/openapi.json's exact bytes.
python3 - "$port" "$repo/docs/openapi.json" <<'PY' || die "GET /v1/openapi.json did not answer docs/openapi.json's bytes"
import sys, urllib.request
with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/v1/openapi.json", timeout=5) as answer:
    served = answer.read()
sys.exit(0 if served == open(sys.argv[2], "rb").read() else 1)
PY
echo "serves docs/openapi.json ($(wc -c <"$repo/docs/openapi.json" | tr -d ' ') bytes, identical)"

kill -TERM "$SERVER_PID"
stopping=$SECONDS
deadline=$((SECONDS + 5))
while kill -0 "$SERVER_PID" 2>/dev/null; do
    ((SECONDS < deadline)) || die "still running 5 s after SIGTERM"
    sleep 0.1
done
status=0
wait "$SERVER_PID" || status=$?
SERVER_PID=""
((status == 0)) || die "exit status $status after SIGTERM, want 0"
echo "stopped with status 0 $((SECONDS - stopping))s after SIGTERM"
[[ -f $TMP/data/recents.sqlite ]] || die "no database at RECENTS_DB in the data folder"
[[ -z "$(ls -A "$TMP/workdir")" ]] || die "the server wrote into its working directory: $(ls -A "$TMP/workdir")"

echo "check-runtime-stage: ok (binary $(du -h "$bin" | cut -f1), $(wc -l <"$TMP/libs") shared libraries, ${SECONDS}s)"
