#!/usr/bin/env bash
# scripts/check-shards.sh [path/to/recents]
#
# Two `recents serve --placement` instances over TWO throwaway PostgreSQL clusters (shards a and
# b, the 4,096 buckets split between them) behind nginx (round-robin, loopback), checking what
# only several shards can break:
#   1. the README's walkthrough (scripts/check-readme.py --url) passes through nginx, and both
#      shards hold lists afterwards;
#   2. a write on each shard is read back through the other instance, and a long-poll on each
#      shard parked on one instance is woken within 1 s by a write through the other;
#   3. delete and clear for everyone between two lists on different shards: acknowledged at once,
#      and seen on the peer's list (a long-poll on the other instance wakes) within 1 s;
#   4. the same delete with the peer's cluster stopped (`pg_ctl stop -m immediate`): the caller's
#      write is acknowledged meanwhile, /metrics shows the entry pending, and once the cluster is
#      started again the peer's copy goes.
# Needs postgresql, nginx, curl and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/debug/recents}
bin=$(realpath "$bin")

check_name=check-shards
source scripts/checklib.sh
clusters=("$root/pga" "$root/pgb")
# The bucket of a list name (DEPLOY.md, "Many shards"): SHA-256, first 8 bytes big-endian, mod 4,096.
bucket() { python3 -c 'import hashlib, sys; print(int.from_bytes(hashlib.sha256(sys.argv[1].encode()).digest()[:8], "big") % 4096)' "$1"; }
# A list name PREFIX-N on shard a (buckets 0-1023 and 2200-4095) or b (1024-2199).
list_on() { # shard prefix
    local n=0 b
    while :; do
        b=$(bucket "$2-$n")
        if { [[ $1 == b ]] && ((b >= 1024 && b < 2200)); } || { [[ $1 == a ]] && ! ((b >= 1024 && b < 2200)); }; then
            echo "$2-$n"
            return
        fi
        n=$((n + 1))
    done
}

uri_a=$(bash scripts/postgres-cluster.sh start "$root/pga")
uri_b=$(bash scripts/postgres-cluster.sh start "$root/pgb")
# Shard b holds the README's demo list; alice and carol share shard a, because the README reads
# carol right after alice's delete for everyone, which across shards lands within about a second,
# not at once (section 3 checks that case).
cat >"$root/placement.json" <<EOF
{"shards": {"a": "$uri_a", "b": "$uri_b"},
 "buckets": [{"from": 0, "to": 1023, "shard": "a"}, {"from": 1024, "to": 2199, "shard": "b"},
             {"from": 2200, "to": 4095, "shard": "a"}]}
EOF

port_1=$(free_port)
port_2=$(free_port)
port_n=$(free_port)
start_instance one "$port_1" --placement "$root/placement.json"
start_instance two "$port_2" --placement "$root/placement.json"
bash scripts/nginx-proxy-conf.sh "$root" "$port_n" "$port_1" "$port_2" >"$root/nginx.conf"
nginx -c "$root/nginx.conf" -p "$root" || die "nginx did not start"

post() { # base list id peer -> HTTP status
    curl -s -o /dev/null -w '%{http_code}' -X POST "$1/v1/lists/$2/calls" -H 'Content-Type: application/json' \
        -d "{\"id\": \"$3\", \"peer\": {\"id\": \"$4\"}, \"direction\": \"incoming\", \"duration\": 1, \"video\": false, \"timestamp\": 1764468000}"
}
post_ok() { [[ $(post "$@") == 201 ]]; }
version() { curl -s "$1/v1/lists/$2" | python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])'; }
calls() { curl -s "$1/v1/lists/$2" | python3 -c 'import json, sys; print(json.load(sys.stdin)["callCount"])'; }
lists_on() { # uri -> lists stored
    if [[ $(id -u) == 0 ]]; then runuser -u recents-pg -- psql "$1" -tAc 'SELECT count(*) FROM lists'; else psql "$1" -tAc 'SELECT count(*) FROM lists'; fi
}
# Parks a long-poll on $1 for list $2 past its current version, runs "$3..." through the other
# side, and prints the seconds from that write to the long-poll's answer; fails past 1 s.
woken_within_a_second() { # base list what command...
    local base=$1 list=$2 what=$3
    shift 3
    local v
    v=$(version "$base" "$list")
    curl -s -o "$root/poll.json" "$base/v1/lists/$list/transitions?since=$v&wait=20" &
    local poll=$!
    sleep 0.5 # let the poll park (the time below is measured from the write, not from here)
    local start
    start=$(date +%s.%N)
    "$@" || die "$what: the write failed"
    wait "$poll"
    local elapsed
    elapsed=$(python3 -c "import time; print(round(time.time() - $start, 3))")
    python3 -c "import sys; sys.exit(0 if $elapsed <= 1.0 else 1)" || die "$what: the long-poll took ${elapsed}s"
    grep -q "\"to\":$((v + 1))" "$root/poll.json" || die "$what: the long-poll saw $(head -c 200 "$root/poll.json")"
    echo "$elapsed"
}

# 1. the README's walkthrough through nginx, and lists on both shards
python3 scripts/check-readme.py --url "http://127.0.0.1:$port_n" "$bin" >"$root/readme.log" 2>&1 ||
    die "the README walkthrough through nginx: $(grep -A3 FAIL "$root/readme.log" | head -20)"
on_a=$(lists_on "$uri_a")
on_b=$(lists_on "$uri_b")
((on_a > 0 && on_b > 0)) || die "the walkthrough left lists on one shard only (a: $on_a, b: $on_b)"
echo "ok: the README walkthrough through nginx ($(tail -n 1 "$root/readme.log")); lists on shard a: $on_a, b: $on_b"

# 2. each shard written through one instance, read and followed through the other
la=$(list_on a shard-a)
lb=$(list_on b shard-b)
for pair in "$la $port_1 $port_2" "$lb $port_2 $port_1"; do
    read -r list w r <<<"$pair"
    [[ $(post "localhost:$w" "$list" x1 nobody) == 201 ]] || die "write to $list"
    [[ $(version "localhost:$r" "$list") == 1 ]] || die "$list written on one instance is not read back on the other"
    t=$(woken_within_a_second "localhost:$r" "$list" "long-poll on $list" post_ok "localhost:$w" "$list" x2 nobody)
    echo "ok: $list: a write through one instance is read back through the other; its long-poll woke ${t}s after"
done

# 3. delete and clear for everyone from a list on shard a to its peer on shard b
caller=$(list_on a caller)
peer=$(list_on b peer)
post_both() { # id: a call of that id in each list, naming the other
    [[ $(post "localhost:$port_n" "$caller" "$1" "$peer") == 201 ]] || die "post $1 to $caller"
    [[ $(post "localhost:$port_n" "$peer" "$1" "$caller") == 201 ]] || die "post $1 to $peer"
}
post_both d1
post_both d2
delete_everyone() { # base list row
    [[ $(curl -s -o /dev/null -w '%{http_code}' -X POST "$1/v1/lists/$2/rows/$3/options/delete" \
        -H 'Content-Type: application/json' -d '{"scope": "everyone"}') == 200 ]]
}
clear_everyone() { # base list
    [[ $(curl -s -o /dev/null -w '%{http_code}' -X POST "$1/v1/lists/$2/clear" \
        -H 'Content-Type: application/json' -d '{"scope": "everyone"}') == 200 ]]
}
t=$(woken_within_a_second "localhost:$port_2" "$peer" "delete for everyone" delete_everyone "localhost:$port_1" "$caller" d2)
[[ $(calls "localhost:$port_2" "$peer") == 0 ]] || die "the peer kept its copy after the delete for everyone"
echo "ok: delete for everyone on shard a ($caller) reached $peer on shard b ${t}s after the write"
post_both c1
t=$(woken_within_a_second "localhost:$port_1" "$peer" "clear for everyone" clear_everyone "localhost:$port_2" "$caller")
[[ $(calls "localhost:$port_1" "$peer") == 0 ]] || die "the peer kept its copy after the clear for everyone"
echo "ok: clear for everyone on shard a reached the peer on shard b ${t}s after the write"

# 4. the peer's cluster stopped: the caller's delete is acknowledged, and lands after the restart
post_both s1
bash scripts/postgres-cluster.sh kill "$root/pgb" >/dev/null
delete_everyone "localhost:$port_n" "$caller" s1 || die "the caller's delete failed while the peer's shard was stopped"
[[ $(calls "localhost:$port_n" "$caller") == 0 ]] || die "the caller's delete is not visible"
pending_on_a() { curl -s "localhost:$1/metrics" | awk '/^recents_shard_outbox_pending\{shard="a"\}/ {print $2}'; }
for _ in $(seq 30); do # the drainer reads the backlog after its attempt, at most a second later
    pending=$(pending_on_a "$port_1")
    [[ $pending == 1 ]] && break
    sleep 0.1
done
[[ $pending == 1 ]] || die "shard a's outbox shows $pending pending entries, not 1"
echo "ok: with shard b stopped the caller's delete was acknowledged; shard a's outbox holds $pending entry"
bash scripts/postgres-cluster.sh start "$root/pgb" >/dev/null
start=$(date +%s.%N)
for _ in $(seq 150); do
    [[ $(calls "localhost:$port_n" "$peer" 2>/dev/null) == 0 ]] && break
    sleep 0.1
done
[[ $(calls "localhost:$port_n" "$peer") == 0 ]] || die "the delete did not land on $peer within 15 s of the restart"
elapsed=$(python3 -c "import time; print(round(time.time() - $start, 3))")
echo "ok: shard b started again: the pending delete landed on $peer ${elapsed}s later"
echo "check-shards: all checks passed"
