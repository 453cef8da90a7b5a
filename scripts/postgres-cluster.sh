#!/usr/bin/env bash
# scripts/postgres-cluster.sh start DIR | stop DIR
#
# A throwaway PostgreSQL cluster for tests and benchmarks: initdb into DIR as an unprivileged
# user (PostgreSQL refuses to run as root), listening on 127.0.0.1 only, on a free port, with
# fsync and synchronous_commit on (the durability the crash tests assume). `start` prints the
# connection URI on stdout (postgresql://USER@127.0.0.1:PORT/recents); `stop` stops it
# (-m immediate is the caller's business: scripts may call pg_ctl themselves for that).
set -euo pipefail

cmd=${1:?usage: postgres-cluster.sh start|stop DIR}
dir=${2:?usage: postgres-cluster.sh start|stop DIR}

bindir=""
for candidate in /usr/lib/postgresql/*/bin; do
    [[ -x $candidate/initdb ]] && bindir=$candidate
done
if [[ -z $bindir ]]; then
    echo "postgres-cluster.sh: no PostgreSQL server found (apt-get install postgresql)" >&2
    exit 1
fi

# The user that owns and runs the cluster: ourselves when not root, else a system user made once.
if [[ $(id -u) == 0 ]]; then
    user=recents-pg
    id "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
    as_user() { runuser -u "$user" -- "$@"; }
else
    user=$(id -un)
    as_user() { "$@"; }
fi

case "$cmd" in
start)
    mkdir -p "$dir"
    chown "$user" "$dir" 2>/dev/null || true
    as_user test -w "$dir" || {
        echo "postgres-cluster.sh: $user cannot write $dir (are its parent folders traversable? chmod 755 them)" >&2
        exit 1
    }
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_user "$bindir/initdb" -D "$dir/data" -U "$user" --auth=trust --no-instructions -E UTF8 >"$dir/initdb.log" 2>&1 ||
        {
            cat "$dir/initdb.log" >&2
            exit 1
        }
    as_user "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=on -c synchronous_commit=on -c max_connections=200" \
        start >/dev/null || {
        cat "$dir/server.log" >&2
        exit 1
    }
    as_user "$bindir/createdb" -h 127.0.0.1 -p "$port" -U "$user" recents
    echo "$port" >"$dir/port"
    echo "postgresql://$user@127.0.0.1:$port/recents"
    ;;
stop)
    [[ -d $dir/data ]] || exit 0
    as_user "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    ;;
*)
    echo "postgres-cluster.sh: unknown command '$cmd'" >&2
    exit 2
    ;;
esac
