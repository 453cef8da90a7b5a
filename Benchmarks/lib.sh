# shellcheck shell=bash
# Benchmarks/lib.sh: what every row group of `Benchmarks/run` uses, sourced by run before the
# groups: the log, processes started and stopped by PID, the table's rows (fig) and their causes
# (cause_of), the Python helpers, free ports, nginx and Recents servers, RSS and CPU readings, and
# wrk runs with their summaries. It reads run's globals (TMP, HERE, STARTED, PIDS, BROKEN, NOTES,
# FIGURES, RECENTS, the scale settings) and sets some (PORT, SERVER, NGINX_PORT, NGINX_PID,
# MEAN_RPS, MEAN_P99, MEAN_CPU).

log() { printf '[%4ss] %s\n' "$((SECONDS - STARTED))" "$*" >&2; }

# Stops one process started here and forgets it.
stop() {
    local pid=$1 i keep=()
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 100; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    kill -0 "$pid" 2>/dev/null && log "pid $pid did not stop within 5 s of SIGTERM: killed"
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    for i in "${PIDS[@]}"; do [[ $i == "$pid" ]] || keep+=("$i"); done
    PIDS=("${keep[@]}")
}

broken() {
    BROKEN+=("$*")
    log "BROKEN: $*"
}

# fig GROUP FIGURE UNIT RECENTS ANCHOR ANCHOR_NAME TARGET [CAUSE]: one row of the table.
fig() {
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$7" "${8:-$(cause_of "$2")}" >>"$FIGURES"
}

# cause_of FIGURE: what profiling found about why FIGURE can miss (from 2026-11-30, Swift 6.3.1,
# 2-core shared VM). Each group file keeps its findings beside its steps, in causes_NAME, which
# prints the cause of a figure it knows and fails otherwise. A figure without an entry gets a
# "needs profiling" placeholder in RESULTS.md.
cause_of() {
    local causes
    for causes in $(compgen -A function causes_); do
        "$causes" "$1" && return
    done
    echo ""
}

# The interpreter itself, not a version-manager shim (which costs ~0.3 s per start here).
PYTHON=$(command -v /usr/bin/python3 || python3 -c 'import sys; print(sys.executable)')
# py SCRIPT ARGS...: a helper from this directory; none may hang the run for more than 10 min.
py() { timeout 600 "$PYTHON" "$HERE/$1" "${@:2}"; }
jget() { py report.py get "$@"; }

# jrun NAME CMD...: runs a JSON-printing helper into $TMP/NAME.json; a failure is recorded as
# broken and the run goes on, so one broken step still leaves the other figures.
jrun() {
    local name=$1 t0=$SECONDS
    shift
    if ! "$@" >"$TMP/$name.json" 2>"$TMP/$name.err"; then
        broken "$name: $(tail -c 400 "$TMP/$name.json" "$TMP/$name.err" | tr '\n' ' ')"
    fi
    log "  $name ($((SECONDS - t0)) s): $(tail -c 300 "$TMP/$name.json")"
}

free_port() {
    "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_http PORT PID: until GET /healthz answers 200 (10 s at most) while PID lives.
wait_http() {
    local i
    for ((i = 0; i < 1000; i++)); do
        curl -fsS -o /dev/null "http://127.0.0.1:$1/healthz" 2>/dev/null && return 0
        kill -0 "$2" 2>/dev/null || return 1
        sleep 0.01
    done
    return 1
}

NGINX=$(command -v nginx || echo /usr/sbin/nginx)

# nginx_http_conf DIR ACCESS_LOG_LINE < SERVERS: DIR/nginx.conf for an nginx run in the foreground
# as our child, its pid, logs and temp files in DIR, answering JSON; stdin holds what goes in its
# http block after the common lines (the server blocks). Every nginx anchor of the run but the
# PostgreSQL proxy (scripts/nginx-proxy-conf.sh) starts from it, so they differ only there.
# Tuned as nginx is served in earnest (issue 42): one worker per core, and keepalive_requests
# 1000000, since the default (1000) closed each wrk connection every thousand answers and made
# nginx pay a reconnect that Recents never did.
nginx_http_conf() {
    mkdir -p "$1"
    {
        cat <<EOF
daemon off;
worker_processes auto;
worker_rlimit_nofile 20000;
pid $1/nginx.pid;
error_log $1/error.log warn;
events { worker_connections 20000; }
http {
    $2
    keepalive_requests 1000000;
    types { }
    default_type application/json;
    client_body_temp_path $1/body;
    proxy_temp_path $1/proxy;
    fastcgi_temp_path $1/fastcgi;
    uwsgi_temp_path $1/uwsgi;
    scgi_temp_path $1/scgi;
EOF
        cat
        echo "}"
    } >"$1/nginx.conf"
}

# nginx_conf DIR PORT [ACCESS_LOG]: a config serving $TMP/www on PORT, run in the foreground as
# our child. worker_processes auto (one per core, like Recents' event loops), access_log off
# unless ACCESS_LOG names a file (Recents runs at --log-level warn, which logs no requests, unless
# a row says otherwise), keepalive_requests 1000000 (nginx_http_conf).
nginx_conf() {
    local access="access_log off;"
    [[ -n ${3:-} ]] && access="access_log $3;"
    nginx_http_conf "$1" "$access" <<EOF
    server {
        listen 127.0.0.1:$2;
        root $TMP/www;
    }
EOF
}

start_nginx() {
    NGINX_PORT=$(free_port)
    mkdir -p "$TMP/www"
    printf '{"status":"ok"}' >"$TMP/www/healthz"
    nginx_conf "$TMP/nginx" "$NGINX_PORT"
    "$NGINX" -p "$TMP/nginx" -c "$TMP/nginx/nginx.conf" -e "$TMP/nginx/error.log" 2>>"$TMP/nginx/stderr.log" &
    NGINX_PID=$!
    PIDS+=("$NGINX_PID")
    wait_http "$NGINX_PORT" "$NGINX_PID" || {
        cat "$TMP/nginx/error.log" >&2
        exit 1
    }
}

# start_recents NAME LEVEL [FLAGS...]: a server on a new database $TMP/NAME/db.sqlite, stderr to NAME.log.
start_recents() {
    mkdir -p "$TMP/$1"
    PORT=$(free_port)
    "$RECENTS" serve --port "$PORT" --db "$TMP/$1/db.sqlite" --log-level "$2" "${LIVE_FLAGS[@]}" "${@:3}" \
        2>"$TMP/$1/server.log" &
    SERVER=$!
    PIDS+=("$SERVER")
    wait_http "$PORT" "$SERVER" || {
        tail -20 "$TMP/$1/server.log" >&2
        exit 1
    }
}

# rss PID [children]: VmRSS in KiB of PID (and of its direct children: nginx's workers).
rss() {
    local pids=("$1")
    [[ ${2:-} == children ]] && mapfile -t -O 1 pids < <(ps --ppid "$1" -o pid= | tr -d ' ')
    local p
    for p in "${pids[@]}"; do cat "/proc/$p/status"; done | awk '/^VmRSS:/ {s += $2} END {print s}'
}
# rss_anon PID: RssAnon in KiB of PID and its direct children.
rss_anon() {
    local p
    for p in "$1" $(ps --ppid "$1" -o pid=); do cat "/proc/$p/status"; done | awk '/^RssAnon:/ {s += $2} END {print s}'
}
# kib VALUE: VALUE / 1024, rounded (KiB to MiB, bytes to KiB); n/a stays n/a.
kib() { awk -v v="$1" 'BEGIN { if (v == "n/a") print v; else printf "%.2f\n", v / 1024 }'; }

# wrk_run OUT ARGS...: one wrk -t2 -c64 run with keep-alive and the latency distribution.
wrk_run() {
    local out=$1
    shift
    wrk -t2 -c64 -d"${WRK_SECONDS}s" --timeout 10s --latency "$@" >"$out" 2>&1 || broken "wrk $*: $(tail -3 "$out")"
}

# wrk_summary FILES...: sets MEAN_RPS, MEAN_P99 and MEAN_CPU (µs of server CPU per request), the
# mean of each over the rounds (what the table shows), and BEST_RPS, BEST_P99, BEST_CPU, the best
# round of each; every answer must be 2xx (run in this shell, not in $(...), so that broken() is
# remembered).
wrk_summary() {
    local problems timeouts f
    # shellcheck disable=SC2034 # MEAN_* for the caller; BEST_* too, though none reads them yet
    read -r MEAN_RPS MEAN_P99 problems timeouts MEAN_CPU BEST_RPS BEST_P99 BEST_CPU <<<"$(py report.py wrk "$@")"
    ((timeouts == 0)) || NOTES+=("wrk counted $timeouts requests slower than its 10 s timeout in $(basename "$1" | sed 's/-[0-9]*\.txt$//')")
    if ((problems)); then
        broken "wrk: $problems non-2xx answers or socket errors in $*"
        for f in "$@"; do grep -E 'Socket errors|Non-2xx' "$f" | sed "s|^|    $(basename "$f"): |" >&2 || true; done
    fi
}

# round_notes LABEL "ANCHOR / RECENTS" ANCHOR_FILES...: a note with the req/s of every round, the
# anchor's file first and its Recents twin (the same name with nginx, off or anchor replaced).
round_notes() {
    local label=$1 sides=$2 from="" to="" f
    shift 2
    if [[ ${1:-} == --twin ]]; then
        from=$2 to=$3
        shift 3
    fi
    NOTES+=("$label, req/s per round ($sides): $(for f in "$@"; do
        printf '%s / %s; ' "$(sed -n 's/^Requests\/sec: *//p' "$f")" \
            "$(sed -n 's/^Requests\/sec: *//p' "$(twin_of "$f" "$from" "$to")")"
    done | sed 's/; $//')")
}

# twin_of FILE [FROM TO]: the Recents round measured after the anchor round in FILE (its name with
# FROM replaced by TO, when given).
twin_of() {
    if [[ -n ${2:-} ]]; then
        echo "${1/$2/$3}"
        return
    fi
    case "$1" in
    *-nginx-*) echo "${1/-nginx-/-recents-}" ;;
    *-off-*) echo "${1/-off-/-on-}" ;;
    *) echo "$1" ;;
    esac
}

# cpu_ticks PID: user+system clock ticks of PID and its direct children (nginx's workers).
cpu_ticks() {
    local p
    for p in "$1" $(ps --ppid "$1" -o pid=); do cat "/proc/$p/stat"; done | awk '{s += $14 + $15} END {print s}'
}

# wrk_cpu OUT PID ARGS...: wrk_run, then the server's CPU ticks during it appended to OUT.
wrk_cpu() {
    local out=$1 pid=$2 before
    shift 2
    before=$(cpu_ticks "$pid")
    wrk_run "$out" "$@"
    echo "server_cpu_ticks: $(($(cpu_ticks "$pid") - before))" >>"$out"
}

# seed ARGS...: `recents seed` into the server on PORT, on the fixed clock every list is seeded on.
seed() { "$RECENTS" seed --port "$PORT" --now 1764460800 "$@" >/dev/null; }
