# shellcheck shell=bash
# Benchmarks/compression.sh: the compression rows of `Benchmarks/run` (issue 23, "Benchmarks"),
# sourced by Benchmarks/run, which provides NOTES, PIDS, TMP, HERE and the scale; log, fig,
# broken, jrun, py, jget, kib, free_port, wait_http, wrk_cpu, wrk_summary, start_recents, seed,
# stop and NGINX are in lib.sh.
#
# One server on a seeded list (the issue's `bench` list: SEED_CALLS calls, `recents seed --now
# 1764460800`), and beside it in the same run:
#   - bytes on the wire of rows?limit=50, rows?limit=1000, the initial transition of 1,000 rows
#     and the whole page, in identity, gzip and br; every coded answer must inflate to the
#     identity bytes (codings.py bytes);
#   - server CPU per gzip read of rows?limit=50 on a cache hit (wrk -H 'Accept-Encoding: gzip')
#     against nginx serving the same JSON with gzip_static on (the .gz file is Recents' own gzip
#     answer, so the bytes are the same) and with gzip on (compressing every request, at the
#     server's level), and Recents answering br; rounds interleaved, means;
#   - event streams: bytes per event as sent (identity) and as a per-stream gzip encoder would
#     send them, and server RSS with FAN_WAITERS streams open, as it is (bench_sse's figure when it
#     ran in this run, else sse.py fanout here) and with one encoder per stream added
#     (codings.py events).

# The server's default run-time gzip level (--gzip-level), which nginx's gzip on is given too.
COMP_GZIP_LEVEL=6

# comp_nginx_conf DIR STATIC_PORT DYNAMIC_PORT ROOT: one nginx, two servers on the same files:
# gzip_static on (sends FILE.gz as it is) and gzip on (codes FILE on every request).
comp_nginx_conf() {
    nginx_http_conf "$1" "access_log off;" <<EOF
    gzip_vary on;
    server {
        listen 127.0.0.1:$2;
        root $4;
        gzip_static on;
    }
    server {
        listen 127.0.0.1:$3;
        root $4;
        gzip on;
        gzip_types application/json;
        gzip_comp_level $COMP_GZIP_LEVEL;
    }
EOF
}

# comp_check_nginx URL GZ_FILE IDENTITY_FILE: nginx must answer URL in gzip, and the body must
# be GZ_FILE's bytes (when given) and inflate to IDENTITY_FILE's. Sets COMP_GZ_SIZE to the body's
# size (a variable, not output: broken() must run in this shell to be remembered).
comp_check_nginx() {
    local out=$TMP/compression/check-$RANDOM
    COMP_GZ_SIZE=n/a
    curl -fsS -D "$out.head" -o "$out.body" -H 'Accept-Encoding: gzip' "$1" || {
        broken "compression: GET $1 failed"
        return
    }
    grep -qi '^content-encoding: *gzip' "$out.head" || broken "compression: nginx did not answer $1 in gzip"
    [[ -z $2 ]] || cmp -s "$2" "$out.body" || broken "compression: nginx's gzip_static answer is not Recents' gzip bytes"
    gzip -dc <"$out.body" | cmp -s - "$3" || broken "compression: nginx's gzip answer to $1 does not inflate to the JSON"
    COMP_GZ_SIZE=$(stat -c %s "$out.body")
}

bench_compression() {
    log "compression: bytes in identity/gzip/br, CPU per gzip read against nginx gzip_static and gzip on, event bytes"
    start_recents compression warn
    seed --list bench --calls "$SEED_CALLS"
    seed --list events --calls "$SEED_CALLS"
    local root=$TMP/wwwz
    mkdir -p "$root"
    printf '{"status":"ok"}' >"$root/healthz"
    jrun codings py codings.py --port "$PORT" --list bench bytes --save-root "$root"
    comp_bytes_rows

    local static_port dynamic_port npid path="/v1/lists/bench/rows?limit=50" file=$root/v1/lists/bench/rows
    static_port=$(free_port)
    dynamic_port=$(free_port)
    comp_nginx_conf "$TMP/compression/nginx" "$static_port" "$dynamic_port" "$root"
    "$NGINX" -p "$TMP/compression/nginx" -c "$TMP/compression/nginx/nginx.conf" -e "$TMP/compression/nginx/error.log" \
        2>>"$TMP/compression/nginx/stderr.log" &
    npid=$!
    PIDS+=("$npid")
    wait_http "$static_port" "$npid" || {
        cat "$TMP/compression/nginx/error.log" >&2
        exit 1
    }
    local dynamic_size=n/a
    if [[ -s $file.gz ]]; then
        comp_check_nginx "http://127.0.0.1:$static_port$path" "$file.gz" "$file"
        comp_check_nginx "http://127.0.0.1:$dynamic_port$path" "" "$file"
        dynamic_size=$COMP_GZ_SIZE
        curl -fsS -H 'Accept-Encoding: gzip' "http://127.0.0.1:$PORT$path" | cmp -s - "$file.gz" ||
            broken "compression: Recents' gzip answer changed between two requests"
    else
        broken "compression: no gzip copy of rows?limit=50 was saved"
    fi
    local sides="nginx gzip_static, nginx gzip on, Recents gzip, Recents br"
    log "compression: wrk -t2 -c64 -d${WRK_SECONDS}s, $WRK_ROUNDS round(s): $sides"
    local round
    for ((round = 1; round <= WRK_ROUNDS; round++)); do
        wrk_cpu "$TMP/wrk-cz-static-$round.txt" "$npid" -H 'Accept-Encoding: gzip' "http://127.0.0.1:$static_port$path"
        wrk_cpu "$TMP/wrk-cz-dynamic-$round.txt" "$npid" -H 'Accept-Encoding: gzip' "http://127.0.0.1:$dynamic_port$path"
        wrk_cpu "$TMP/wrk-cz-gzip-$round.txt" "$SERVER" -H 'Accept-Encoding: gzip' "http://127.0.0.1:$PORT$path"
        wrk_cpu "$TMP/wrk-cz-br-$round.txt" "$SERVER" -H 'Accept-Encoding: br' "http://127.0.0.1:$PORT$path"
    done
    stop "$npid"
    comp_cpu_rows "$dynamic_size" "$sides"

    jrun compevents py codings.py --port "$PORT" --list events events --writes "$COMP_EVENTS" \
        --warmup "$COMP_WARMUP" --encoders "$FAN_WAITERS"
    stop "$SERVER"
    comp_stream_rows
}


# comp_bytes_rows: the bytes table from codings.py bytes; ratio = coded size ÷ identity size.
comp_bytes_rows() {
    local keys=() values=() name coding label i
    local -A got
    for name in rows50 rows1000 initial1000 page; do
        for coding in identity gzip br; do keys+=("$name.$coding"); done
    done
    keys+=(rows50.rows rows1000.rows initial1000.rows page.loaded)
    # one helper start for every value: on a loaded host each python start costs ~0.3 s
    read -r -a values <<<"$(jget "$TMP/codings.json" "${keys[@]}")"
    for i in "${!keys[@]}"; do got[${keys[$i]}]=${values[$i]:-n/a}; done
    for name in rows50 rows1000 initial1000 page; do
        case $name in
        rows50) label="rows?limit=50 (${got[rows50.rows]} rows)" ;;
        rows1000) label="rows?limit=1000 (${got[rows1000.rows]} rows)" ;;
        initial1000) label="initial transition, transitions?limit=1000 (${got[initial1000.rows]} rows)" ;;
        page) label="whole page: index.html and the ${got[page.loaded]} files it loads" ;;
        esac
        for coding in gzip br; do
            fig "8 Compression" "$label: bytes in $coding" B "${got[$name.$coding]}" "${got[$name.identity]}" \
                "identity: the same request without Accept-Encoding" ""
        done
    done
}

# comp_wire_check IDENTITY_BYTES FILES...: wrk counts bytes read; a side whose answers average
# more than half the identity body was not sending gzip or br during the load.
comp_wire_check() {
    local identity=$1 f per
    shift
    for f in "$@"; do
        # "  31178 requests in 1.00s, 55.62MB read"
        per=$(awk '/ requests in .* read$/ {
            n = $1; v = $(NF - 1); u = v
            sub(/^[0-9.]+/, "", u); sub(/[A-Za-z]+$/, "", v)
            m = (u == "GB") ? 1073741824 : (u == "MB") ? 1048576 : (u == "KB") ? 1024 : 1
            printf "%.0f\n", v * m / n }' "$f")
        if [[ -z $per ]] || [[ $identity == n/a ]] || ((per * 2 > identity)); then
            broken "compression: $(basename "$f"): ${per:-?} bytes read per answer (identity body $identity bytes)"
        fi
    done
}

# comp_cpu_rows DYNAMIC_SIZE SIDES: the CPU and req/s rows from the wrk rounds, and a note per
# round naming the SIDES in the order measured.
comp_cpu_rows() {
    local gz br rr rc sr sc dr dc bc
    read -r gz br <<<"$(jget "$TMP/codings.json" rows50.gzip rows50.br)"
    comp_wire_check "$(jget "$TMP/codings.json" rows50.identity)" "$TMP"/wrk-cz-*.txt
    wrk_summary "$TMP"/wrk-cz-gzip-*.txt
    rr=$MEAN_RPS rc=$MEAN_CPU
    wrk_summary "$TMP"/wrk-cz-br-*.txt
    bc=$MEAN_CPU
    wrk_summary "$TMP"/wrk-cz-static-*.txt
    sr=$MEAN_RPS sc=$MEAN_CPU
    wrk_summary "$TMP"/wrk-cz-dynamic-*.txt
    dr=$MEAN_RPS dc=$MEAN_CPU
    local static="nginx gzip_static on, sending Recents' own $gz-byte gzip answer as its .gz file"
    local dynamic="nginx gzip on, level $COMP_GZIP_LEVEL, coding every request ($1 bytes)"
    fig "8 Compression" "rows?limit=50 in gzip ($gz bytes), cache hit: server CPU per request" µs "$rc" "$sc" \
        "$static" "ratio_le:1"
    fig "8 Compression" "rows?limit=50 in gzip, cache hit: server CPU per request, against per-request gzip" µs \
        "$rc" "$dc" "$dynamic" ""
    fig "8 Compression" "rows?limit=50 in br ($br bytes), cache hit: server CPU per request" µs "$bc" "$sc" "$static" ""
    fig "8 Compression" "rows?limit=50 in gzip, cache hit: req/s" req/s "$rr" "$sr" "$static" ""
    fig "8 Compression" "rows?limit=50 in gzip, cache hit: req/s, against per-request gzip" req/s "$rr" "$dr" \
        "$dynamic" ""
    local round side line=""
    for ((round = 1; round <= WRK_ROUNDS; round++)); do
        line+="round $round:"
        for side in static dynamic gzip br; do
            line+=" $(py report.py wrk "$TMP/wrk-cz-$side-$round.txt" | awk '{ printf "%s req/s %s µs", $1, $5 }'),"
        done
        line="${line%,}; "
    done
    NOTES+=("rows?limit=50 compressed reads, per round ($2): ${line%; }")
}

# comp_stream_rows: bytes per event and RSS with open streams, as sent and with a gzip encoder
# per stream.
comp_stream_rows() {
    local first_i first_g steady_i steady_g n enc
    read -r first_i first_g steady_i steady_g n enc <<<"$(jget "$TMP/compevents.json" first_identity first_gzip \
        steady_identity steady_gzip steady_events encoder_kib)"
    local anchor="one gzip encoder per stream: level 6, windowBits 11, memLevel 3, sync flush per event"
    anchor+=" (zlib on the same events)"
    fig "8 Compression" "event stream, first event (initial transition, 50 rows): bytes as sent (identity)" B \
        "$first_i" "$first_g" "$anchor" ""
    fig "8 Compression" "event stream, one write's event (mean of $n): bytes as sent (identity)" B \
        "$steady_i" "$steady_g" "$anchor" ""
    local rss_file=$TMP/ssefan.json
    if [[ $(jget "$rss_file" rss_open_kb) == n/a ]]; then
        # bench_sse did not run (--only): its helper, the same way, on a server of our own.
        start_recents compsse warn --sse-heartbeat 3600
        jrun compssefan py sse.py fanout --port "$PORT" --pid "$SERVER" --prefix compsse --per-list "$FAN_WAITERS" \
            --settle "$SETTLE"
        stop "$SERVER"
        rss_file=$TMP/compssefan.json
    fi
    local rss before per with
    read -r rss before <<<"$(jget "$rss_file" rss_open_kb rss_before_kb)"
    read -r per with <<<"$(awk -v r="$rss" -v b="$before" -v k="$enc" -v n="$FAN_WAITERS" 'BEGIN {
        if (r == "n/a" || b == "n/a" || k == "n/a") { print "n/a n/a"; exit }
        printf "%.2f %.0f\n", (r - b) / n, r + k * n }')"
    fig "8 Compression" "server RSS while $FAN_WAITERS streams are open, as sent (identity)" MB "$(kib "$rss")" \
        "$(kib "$with")" \
        "the same plus one gzip encoder per stream ($enc KiB each, measured over $FAN_WAITERS zlib encoders)" \
        "le:200"
    fig "8 Compression" "RSS per open stream, as sent (identity)" KiB "$per" \
        "$(awk -v p="$per" -v k="$enc" 'BEGIN { print (p == "n/a" || k == "n/a") ? "n/a" : p + k }')" \
        "the same plus its gzip encoder" ""
}

# causes_compression FIGURE: why FIGURE, one of this group's, can miss, as far as profiling found (the
# cause_of of lib.sh asks every group); fails for a figure it has nothing on.
causes_compression() {
    case "$1" in
    "rows?limit=50 in gzip ("*"cache hit: server CPU per request")
        echo "near 1 and inside this host's noise, not compression work: two full-scale runs of" \
            "--only compression (2026-12-02, load average 9-11 from other builds) gave 0.924 and 0.936, with" \
            "Recents at 11.6-14.4 us and nginx gzip_static at 12.6-15.1 us per request round by round; 1 s" \
            "smoke rounds gave 0.87-1.21. perf record -g of Recents under the same wrk load: no zlib symbol" \
            "at all (the coded copy is made once, on the cache fill), EncodedBody.bytes(in:) 0.07% and the" \
            "Accept-Encoding parse and choice ~0.15% of samples, 70% in the kernel (finish_task_switch 17%," \
            "sock_def_readable 8.5%, _copy_from_iter 5.8%), retain/release 6.5%. A hit in gzip is an" \
            "identity hit with a smaller body, so a miss here is the read path's own cost (the" \
            "rows?limit=20 rows: 1.2-1.3x nginx), while nginx gzip_static pays openat, fstat, pread and close" \
            "of the .gz file per request (strace of a worker; open_file_cache is off, nginx's default)."
        ;;
    *) return 1 ;;
    esac
}
