#!/usr/bin/env bash
# scripts/check-two-instances.sh [path/to/recents]
#
# Two `recents serve` instances on one throwaway PostgreSQL cluster behind nginx (round-robin,
# loopback), checking what only several instances can break:
#   1. both answer the same epoch, a write through nginx is read back through nginx, and the
#      README's walkthrough (scripts/check-readme.py --url) passes through nginx;
#   2. a write through instance A answers a long-poll parked on instance B within 1 s;
#   3. `kill -9` of instance B while 32 writers post through nginx, and then
#      `pg_ctl restart -m immediate` under the same writers: every acknowledged (201) write is
#      stored, and each list's versions are gap-free (version == number of stored calls);
#   4. PostgreSQL stopped: a write answers 503 `storage-unavailable` with Retry-After, /healthz
#      200 `degraded` ("the database does not answer"); started again: the next write is stored.
# Needs postgresql, nginx, curl and python3; .ci/run runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/debug/recents}
bin=$(realpath "$bin")

check_name=check-two-instances
source scripts/checklib.sh
clusters=("$root/pg")

uri=$(bash scripts/postgres-cluster.sh start "$root/pg")
"$bin" migrate --db "$uri" >/dev/null

port_a=$(free_port)
port_b=$(free_port)
port_n=$(free_port)
start_instance a "$port_a" --db "$uri"
start_instance b "$port_b" --db "$uri"

bash scripts/nginx-proxy-conf.sh "$root" "$port_n" "$port_a" "$port_b" >"$root/nginx.conf"
nginx -c "$root/nginx.conf" -p "$root" || die "nginx did not start"

post() { # base list id -> HTTP status
    curl -s -o /dev/null -w '%{http_code}' -X POST "$1/v1/lists/$2/calls" -H 'Content-Type: application/json' \
        -d "{\"id\": \"$3\", \"peer\": {\"id\": \"p\"}, \"direction\": \"incoming\", \"duration\": 1, \"video\": false, \"timestamp\": 1764468000}"
}
version() { curl -s "$1/v1/lists/$2/rows?limit=1" | python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])'; }
epoch() { curl -s "$1/v1/lists/x/rows" | python3 -c 'import json, sys; print(json.load(sys.stdin)["epoch"])'; }

# 1. one epoch, end to end through nginx
[[ $(epoch "localhost:$port_a") == "$(epoch "localhost:$port_b")" ]] || die "the instances answer different epochs"
[[ $(post "localhost:$port_n" e2e c1) == 201 ]] || die "write through nginx"
[[ $(version "localhost:$port_n" e2e) == 1 ]] || die "read through nginx"
echo "ok: one epoch; a write through nginx is read back through nginx"

# 1b. the README's walkthrough, end to end through nginx (round-robin: consecutive requests, and a
# long-poll and the write that answers it, land on different instances)
python3 scripts/check-readme.py --url "http://127.0.0.1:$port_n" "$bin" >"$root/readme.log" 2>&1 ||
    die "the README walkthrough through nginx: $(grep -A3 FAIL "$root/readme.log" | head -20)"
echo "ok: the README walkthrough through nginx: $(tail -n 1 "$root/readme.log")"

# 2. a write through A answers a long-poll parked on B within 1 s
v=$(version "localhost:$port_b" wake)
curl -s -o "$root/poll.json" -w '%{time_total}' "localhost:$port_b/v1/lists/wake/transitions?since=$v&wait=20" >"$root/poll.time" &
poll=$!
sleep 0.5 # let the poll park (the check below measures from the write, not from here)
start=$(date +%s.%N)
[[ $(post "localhost:$port_a" wake w1) == 201 ]] || die "write through A"
wait "$poll"
elapsed=$(python3 -c "import time; print(round(time.time() - $start, 3))")
python3 -c "import sys; sys.exit(0 if $elapsed <= 1.0 else 1)" || die "the long-poll on B took ${elapsed}s after the write on A"
grep -q '"to":1' "$root/poll.json" || grep -q '"version":1' "$root/poll.json" || die "the long-poll did not see version 1: $(head -c 200 "$root/poll.json")"
echo "ok: a write on A answered a long-poll on B ${elapsed}s later"

# 3. 32 writers through nginx; kill -9 of B, then an immediate PostgreSQL restart
writers() { # seconds
    python3 - "$port_n" "$1" "$root/acks" <<'PY'
import http.client, json, sys, threading, time
port, seconds, out = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
deadline = time.time() + seconds
acks, lock = [], threading.Lock()
def run(n):
    i = 0
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    while time.time() < deadline:
        i += 1
        cid, lst = f"w{n}-{i}-{time.time_ns()}", f"crash{n % 4}"
        body = json.dumps({"id": cid, "peer": {"id": "p"}, "direction": "incoming", "duration": 1,
                           "video": False, "timestamp": 1764468000})
        try:
            conn.request("POST", f"/v1/lists/{lst}/calls", body, {"Content-Type": "application/json"})
            r = conn.getresponse(); r.read()
            if r.status == 201:
                with lock: acks.append((lst, cid))
        except Exception:
            conn.close(); conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10); time.sleep(0.05)
threads = [threading.Thread(target=run, args=(n,)) for n in range(32)]
for t in threads: t.start()
for t in threads: t.join()
with open(out, "a") as f:
    for lst, cid in acks: f.write(f"{lst} {cid}\n")
PY
}
: >"$root/acks"
writers 6 &
load=$!
sleep 2
kill -KILL "$pid_b"
wait "$load"
pgbin=$(dirname "$(ls /usr/lib/postgresql/*/bin/pg_ctl | tail -n 1)")
as_pg() { if [[ $(id -u) == 0 ]]; then runuser -u recents-pg -- "$@"; else "$@"; fi; }
writers 6 &
load=$!
sleep 2
as_pg "$pgbin/pg_ctl" -D "$root/pg/data" -m immediate -w restart >/dev/null
wait "$load"
sleep 1
python3 - "$port_a" "$root/acks" <<'PY' || die "an acknowledged write is missing or a version gap appeared"
import http.client, json, sys
port, acks = int(sys.argv[1]), [line.split() for line in open(sys.argv[2])]
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
def get(path):
    conn.request("GET", path)
    r = conn.getresponse()
    return r.status, r.read()
bad = 0
for lst, cid in acks:
    status, _ = get(f"/v1/lists/{lst}/calls/{cid}")
    if status != 200:
        bad += 1
        print(f"acknowledged {lst}/{cid} answers {status}")
for lst in sorted({l for l, _ in acks}):
    info = json.loads(get(f"/v1/lists/{lst}")[1])
    # One call per write and no deletes: gap-free versions mean version == calls stored.
    if info["version"] != info["callCount"]:
        bad += 1
        print(f"{lst}: version {info['version']} for {info['callCount']} calls")
print(f"{len(acks)} acknowledged writes checked")
sys.exit(1 if bad else 0)
PY
echo "ok: kill -9 of an instance and an immediate PostgreSQL restart under 32 writers lost nothing acknowledged"

# 4. PostgreSQL stopped: a write answers 503 storage-unavailable with Retry-After and nothing is
#    stored, /healthz answers 200 degraded with the reason (streams and long-polls wait here for
#    the database, so a load balancer should keep the node), and once PostgreSQL is back the same
#    write is stored.
as_pg "$pgbin/pg_ctl" -D "$root/pg/data" -m fast -w stop >/dev/null
curl -s -D "$root/down.head" -o "$root/down.json" -X POST "localhost:$port_a/v1/lists/outage/calls" \
    -H 'Content-Type: application/json' \
    -d '{"id": "o1", "peer": {"id": "p"}, "direction": "incoming", "timestamp": 1764468000}'
grep -q '^HTTP/1.1 503' "$root/down.head" || die "a write with PostgreSQL down: $(head -n 1 "$root/down.head")"
grep -qi '^Retry-After: 1' "$root/down.head" || die "no Retry-After on the 503"
python3 -c 'import json, sys; p = json.load(open(sys.argv[1])); sys.exit(p["type"] != "storage-unavailable" or "does not answer" not in p["detail"])' \
    "$root/down.json" || die "the 503's body: $(cat "$root/down.json")"
health=$(curl -s -w ' %{http_code}' "localhost:$port_a/healthz")
[[ $health == '{"status":"degraded","reason":"the database does not answer"} 200' ]] ||
    die "/healthz with PostgreSQL down: $health"
# restart, not start: it reads the options the cluster first started with (port, socket dir).
as_pg "$pgbin/pg_ctl" -D "$root/pg/data" -l "$root/pg/server.log" -w restart >/dev/null 2>&1
# The instance reconnects within 100-250 ms of PostgreSQL being back: the first writes may still fail.
for _ in $(seq 60); do
    [[ $(post "localhost:$port_a" outage o1) == 201 ]] && break
    sleep 0.5
done
[[ $(version "localhost:$port_a" outage) == 1 ]] || die "the write after PostgreSQL came back"
echo "ok: PostgreSQL stopped: writes answer 503 storage-unavailable (Retry-After: 1), /healthz degraded; back: writes go on"
