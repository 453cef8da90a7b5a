#!/usr/bin/env bash
# scripts/postgres-cluster.sh start DIR | stop DIR | kill DIR
#
# A throwaway PostgreSQL cluster for tests and benchmarks: initdb into DIR as an unprivileged
# user (PostgreSQL refuses to run as root), listening on 127.0.0.1 only, on a free port, with
# fsync and synchronous_commit on (the durability the crash tests assume). `start` prints the
# connection URI on stdout (postgresql://USER@127.0.0.1:PORT/recents); on a cluster made before
# and stopped since, it starts it again on the same port (an outage and its end, for tests).
# `stop` stops it the way an administrator does (-m fast: every session gets a FATAL first);
# `kill` the way a crash does (-m immediate: sessions vanish, and the next start recovers).
set -euo pipefail

usage="usage: postgres-cluster.sh start|stop|kill DIR"
cmd=${1:?$usage}
dir=${2:?$usage}

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

serve() { # port: start the server of $dir/data on it
    as_user "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $1 -k $dir -c fsync=on -c synchronous_commit=on -c max_connections=500" \
        start >/dev/null || {
        cat "$dir/server.log" >&2
        exit 1
    }
}

case "$cmd" in
start)
    if [[ -f $dir/data/PG_VERSION && -f $dir/port ]]; then
        port=$(cat "$dir/port")
        as_user "$bindir/pg_ctl" -D "$dir/data" status >/dev/null 2>&1 || serve "$port"
        echo "postgresql://$user@127.0.0.1:$port/recents"
        exit 0
    fi
    mkdir -p "$dir"
    chown "$user" "$dir" 2>/dev/null || true
    as_user test -w "$dir" || {
        echo "postgres-cluster.sh: $user cannot write $dir (are its parent folders traversable? chmod 755 them)" >&2
        exit 1
    }
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    # --no-sync: a throwaway cluster need not survive an OS crash before its first checkpoint,
    # and flushing initdb's ~1,000 files costs seconds on a busy disk (fsync=on still holds for
    # every commit after start).
    as_user "$bindir/initdb" -D "$dir/data" -U "$user" --auth=trust --no-instructions --no-sync -E UTF8 \
        >"$dir/initdb.log" 2>&1 ||
        {
            cat "$dir/initdb.log" >&2
            exit 1
        }
    serve "$port"
    as_user "$bindir/createdb" -h 127.0.0.1 -p "$port" -U "$user" recents
    echo "$port" >"$dir/port"
    echo "postgresql://$user@127.0.0.1:$port/recents"
    ;;
stop | kill)
    [[ -d $dir/data ]] || exit 0
    mode=fast
    [[ $cmd == kill ]] && mode=immediate
    as_user "$bindir/pg_ctl" -D "$dir/data" -m "$mode" -w stop >/dev/null 2>&1 || true
    ;;
*)
    echo "postgres-cluster.sh: unknown command '$cmd'" >&2
    exit 2
    ;;
esac
