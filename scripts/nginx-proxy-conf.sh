#!/usr/bin/env bash
# scripts/nginx-proxy-conf.sh DIR LISTEN_PORT UPSTREAM_PORT...
#
# Prints an nginx.conf for a loopback reverse proxy: round-robin over the given Recents ports,
# keep-alive to them, every temp path and the pid and error log under DIR. One template for
# scripts/check-two-instances.sh and Benchmarks/postgres.sh, which differ only in scale:
#   NGINX_WORKERS (1), NGINX_CONNECTIONS (1024 per worker), NGINX_KEEPALIVE (64 idle upstream
#   connections per worker), NGINX_FOREGROUND=1 (daemon off, for a caller that waits on its PID).
set -euo pipefail
dir=${1:?usage: nginx-proxy-conf.sh DIR LISTEN_PORT UPSTREAM_PORT...}
listen=${2:?usage: nginx-proxy-conf.sh DIR LISTEN_PORT UPSTREAM_PORT...}
shift 2
(($# > 0)) || {
    echo "nginx-proxy-conf.sh: no upstream port" >&2
    exit 2
}
servers=""
for port in "$@"; do servers+="server 127.0.0.1:$port max_fails=0; "; done
connections=${NGINX_CONNECTIONS:-1024}
[[ ${NGINX_FOREGROUND:-0} == 1 ]] && echo "daemon off;"
cat <<CONF
worker_processes ${NGINX_WORKERS:-1};
worker_rlimit_nofile $((connections + 64));
pid $dir/nginx.pid;
error_log $dir/nginx.log warn;
events { worker_connections $connections; }
http {
    access_log off;
    client_body_temp_path $dir/body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
    upstream recents { $servers keepalive ${NGINX_KEEPALIVE:-64}; }
    server {
        listen 127.0.0.1:$listen;
        location / {
            proxy_pass http://recents;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_read_timeout 60s;
            proxy_next_upstream error timeout;
        }
    }
}
CONF
