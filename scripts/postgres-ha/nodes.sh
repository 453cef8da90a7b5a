# shellcheck shell=bash disable=SC2034,SC2154 # dir is postgres-ha.sh's, and nodes is read there
# scripts/postgres-ha/nodes.sh: the setup's nodes for scripts/postgres-ha.sh, which sources it
# after its settings (and provides dir, die and those settings): PostgreSQL and pg_autoctl found
# and the user that runs them (both at once, when sourced), the ports, SQL on a node, the
# monitor's view of the pair, every process of a node and its kill -9, a node's pg_autoctl
# service, creating the monitor and the data nodes, and waiting for the pair to be healthy or a
# node to take writes (what failover and switchover print their events with).

# ---- PostgreSQL and pg_autoctl ----
bindir=""
for candidate in /usr/lib/postgresql/*/bin; do
    [[ -x $candidate/pg_ctl && -x $candidate/pg_config ]] || continue
    [[ -f $("$candidate/pg_config" --sharedir)/extension/pgautofailover.control ]] && bindir=$candidate
done
[[ -n $bindir ]] && command -v pg_autoctl >/dev/null ||
    die "no pg_auto_failover found (apt-get install postgresql-15-auto-failover)"

# The user that owns and runs the setup: ourselves when not root, else a system user made once.
if [[ $(id -u) == 0 ]]; then
    user=recents-pg
    id "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
    run_as=(runuser -u "$user" --)
else
    user=$(id -un)
    run_as=()
fi
# pg_autoctl keeps its configuration, state and pid files under the XDG directories, and postgres
# its socket in PG_REGRESS_SOCK_DIR: all of it inside DIR, so several setups never share a file.
as_user() {
    "${run_as[@]}" env HOME="$dir" XDG_CONFIG_HOME="$dir/xdg/config" XDG_DATA_HOME="$dir/xdg/data" \
        XDG_RUNTIME_DIR="$dir/xdg/run" PG_CONFIG="$bindir/pg_config" PG_REGRESS_SOCK_DIR="$dir/sock" \
        PGHOST="$dir/sock" PGOPTIONS="-c client_min_messages=warning" PATH="$bindir:$PATH" "$@"
}
now() { date +%s.%N; }
since() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.3f}')" "$1" "$2"; }

nodes=(monitor node1 node2)
declare -A port=()
load_ports() {
    [[ -f $dir/ports ]] || return 1
    local name value
    while read -r name value; do port[$name]=$value; done <"$dir/ports"
}
# Ports below Linux's ephemeral range (32768-60999): a free ephemeral port may be taken by any
# outgoing connection before postgres binds it, and on a busy CI machine it is.
pick_ports() {
    python3 - >"$dir/ports" <<'PY'
import random, socket
chosen = []
while len(chosen) < 3:
    port = random.randrange(20000, 32000)
    s = socket.socket()
    try:
        s.bind(("0.0.0.0", port))
    except OSError:
        continue
    finally:
        s.close()
    if port not in chosen:
        chosen.append(port)
for name, port in zip(("monitor", "node1", "node2"), chosen):
    print(name, port)
PY
}

# psql as the owner, over the socket; -At: bare values.
sql() { # port database statement
    as_user "$bindir/psql" -X -q -At -h "$dir/sock" -p "$1" -d "$2" -v ON_ERROR_STOP=1 -c "$3"
}
monitor_sql() { sql "${port[monitor]}" pg_auto_failover "$1"; }
# "node1:primary:primary:up node2:secondary:secondary:up": each node's reported and goal state,
# and "up" when the monitor's last health check passed and its keeper reported postgres running
# within 3 s (after a restart the monitor still shows the states from before the stop).
states() {
    monitor_sql "SELECT string_agg(nodename || ':' || reportedstate || ':' || goalstate || ':' ||
                   CASE WHEN health = 1 AND reportedpgisrunning AND reporttime > now() - interval '3 s'
                        THEN 'up' ELSE 'down' END, ' ' ORDER BY nodename)
                   FROM pgautofailover.node" 2>/dev/null || echo "(the monitor does not answer)"
}
# The primary of a healthy pair, or nothing.
healthy_primary() {
    case $(states) in
    "node1:primary:primary:up node2:secondary:secondary:up") echo node1 ;;
    "node1:secondary:secondary:up node2:primary:primary:up") echo node2 ;;
    esac
}
other() { if [[ $1 == node1 ]]; then echo node2; else echo node1; fi; }
# One write committed on the node over TCP, as a client would: read-write session and a COMMIT
# that synchronous replication lets through. Bounded, so a hung commit counts as not writable.
writable() { # node
    as_user timeout 2 "$bindir/psql" -X -q -At -v ON_ERROR_STOP=1 \
        "postgresql://$user@127.0.0.1:${port[$1]}/postgres?connect_timeout=1&target_session_attrs=read-write" \
        -c "UPDATE recents_ha_probe SET at = now()" >/dev/null 2>&1
}

# Every process of one node: its pg_autoctl supervisor and the services it forks (found by the
# command line and as descendants), postgres and each backend. Postgres puts every backend in
# its own session, so neither the process group nor the session finds them; they are found as
# descendants of the postmaster and by their working directory, which postgres sets to the data
# directory (which also finds backends whose postmaster already died).
node_pids() { # node
    python3 - "$dir/$1" <<'PY'
import os, sys
data = sys.argv[1]
def inside(path):
    return path == data or path.startswith(data + "/")
parent, mine = {}, set()
ours = {os.getpid(), os.getppid()}
for entry in os.listdir("/proc"):
    if not entry.isdigit():
        continue
    pid = int(entry)
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        if fields[0] == "Z":
            continue
        parent[pid] = int(fields[1])
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
        cwd = os.readlink(f"/proc/{pid}/cwd")
    except (OSError, IndexError, ValueError):
        continue
    if pid not in ours and (inside(cwd) or any(inside(a) for a in argv)):
        mine.add(pid)
grew = True
while grew:
    grew = False
    for pid, ppid in parent.items():
        if ppid in mine and pid not in mine and pid not in ours:
            mine.add(pid)
            grew = True
print(" ".join(map(str, sorted(mine))))
PY
}
running() { [[ -n $(node_pids "$1") ]]; }
# kill -9 of every process of a node at one instant: stop them all first (so none forks or
# restarts another between the listing and the kill), list again until nothing new appears.
# The node stops serving at the first SIGSTOP, so that is the time printed.
kill_node() { # node; prints the wall-clock time of the kill
    local listed="" pids t=""
    while :; do
        pids=$(node_pids "$1")
        [[ $pids == "$listed" ]] && break
        [[ -n $t ]] || t=$(now)
        # shellcheck disable=SC2086 # one pid per word
        kill -STOP $pids 2>/dev/null || true
        listed=$pids
    done
    [[ -n $listed ]] || die "node $1 has no process to kill"
    echo "$t"
    # shellcheck disable=SC2086
    kill -KILL $listed 2>/dev/null || true
    local deadline=$((SECONDS + 10))
    while ((SECONDS < deadline)); do
        [[ -z $(node_pids "$1") ]] && return 0
        sleep 0.05
    done
    die "processes of $1 survived kill -9: $(node_pids "$1")"
}

start_service() { # node: the pg_autoctl supervisor, detached, its output in DIR/log/NODE.log
    running "$1" && return 0
    # As root the log file is opened here and passed down; the user never needs to open it.
    # The working directory is DIR (the user's, and never replaced), not the node's PGDATA: when
    # the keeper falls back from pg_rewind to pg_basebackup it replaces PGDATA, and every postgres
    # its services start from a deleted directory dies at once ("could not locate my own
    # executable path"), so the node never came back (the CI flake's last step).
    (cd "$dir" && as_user setsid -f pg_autoctl run --pgdata "$dir/$1" >>"$dir/log/$1.log" 2>&1 </dev/null)
}
wait_for() { # seconds description command...
    local seconds=$1 what=$2
    shift 2
    local deadline=$((SECONDS + seconds))
    until "$@"; do
        ((SECONDS < deadline)) || die "$what: not within ${seconds}s (nodes: $(states); logs in $dir/log)"
        sleep 0.1
    done
}
monitor_ready() { monitor_sql "SELECT 1" >/dev/null 2>&1; }
node_registered() { [[ -n $(monitor_sql "SELECT 1 FROM pgautofailover.node WHERE nodename = '$1'" 2>/dev/null) ]]; }
pair_healthy() { [[ -n $(healthy_primary) ]]; }
created() { [[ -f $dir/$1/PG_VERSION && -f $dir/xdg/config/pg_autoctl$dir/$1/pg_autoctl.cfg ]]; }
create_log() { # node: what pg_autoctl said while creating it, for an error message
    tail -n 15 "$dir/log/create-$1.log" >&2 || true
}

create_monitor() {
    as_user pg_autoctl create monitor --pgdata "$dir/monitor" --pgport "${port[monitor]}" \
        --hostname 127.0.0.1 --auth trust --no-ssl --pgctl "$bindir/pg_ctl" >"$dir/log/create-monitor.log" 2>&1 ||
        {
            create_log monitor
            die "creating the monitor failed (log: $dir/log/create-monitor.log)"
        }
    # `create monitor` has no --listen: the monitor's postgres listens on loopback only from now.
    as_user pg_autoctl config set --pgdata "$dir/monitor" postgresql.listen_addresses 127.0.0.1 >/dev/null
}
configure_monitor() {
    local name value
    for name in health_check_period health_check_timeout health_check_max_retries health_check_retry_delay \
        node_considered_unhealthy_timeout primary_demote_timeout; do
        value=${!name}
        sql "${port[monitor]}" postgres "ALTER SYSTEM SET pgautofailover.$name = $value" >/dev/null
    done
    sql "${port[monitor]}" postgres "SELECT pg_reload_conf()" >/dev/null
}
create_node() { # node
    as_user pg_autoctl create postgres --pgdata "$dir/$1" --pgport "${port[$1]}" --listen 127.0.0.1 \
        --hostname 127.0.0.1 --name "$1" --dbname recents --auth trust --no-ssl --pgctl "$bindir/pg_ctl" \
        --monitor "postgres://autoctl_node@127.0.0.1:${port[monitor]}/pg_auto_failover?sslmode=disable" \
        --replication-quorum true --candidate-priority 50 >"$dir/log/create-$1.log" 2>&1 || {
        create_log "$1"
        die "creating $1 failed (log: $dir/log/create-$1.log)"
    }
    local name
    for name in network_partition_timeout postgresql_restart_failure_timeout postgresql_restart_failure_max_retries; do
        as_user pg_autoctl config set --pgdata "$dir/$1" "timeout.$name" "${!name}" >/dev/null
    done
}

uri() {
    echo "postgresql://$user@127.0.0.1:${port[node1]},127.0.0.1:${port[node2]}/recents?target_session_attrs=read-write"
}

require_healthy() { # prints the primary (load_ports first: this runs in a subshell)
    local primary
    primary=$(healthy_primary)
    [[ -n $primary ]] || die "$1 needs a primary and a secondary (nodes: $(states))"
    echo "$primary"
}

wait_healthy_with() { # primary started-at: the pair healthy again with this primary
    local deadline=$((SECONDS + 180))
    until [[ $(healthy_primary) == "$1" ]]; do
        ((SECONDS < deadline)) || die "the pair did not become healthy with $1 as primary (nodes: $(states))"
        sleep 0.1
    done
    local t
    t=$(now)
    echo "event=healthy primary=$1 secondary=$(other "$1") at=$t after=$(since "$2" "$t")"
}

wait_writable() { # node started-at
    local deadline=$((SECONDS + 120)) t
    until writable "$1"; do
        ((SECONDS < deadline)) || die "$1 took no write within 120 s (nodes: $(states))"
        sleep 0.05
    done
    t=$(now)
    echo "event=writable node=$1 at=$t after=$(since "$2" "$t")"
}
