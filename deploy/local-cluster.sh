#!/bin/sh
# Runs a local site: N `sushigo serve` processes on one database behind Debian's nginx (docs/deploy.md).
#
#   deploy/local-cluster.sh up N PORT DATABASE_URL   starts them, nginx on PORT; prints the process ids
#   deploy/local-cluster.sh down                      stops what `up` started (and nothing else)
#
# The app processes listen on 127.0.0.1, ports PORT+1 ... PORT+N; their logs, nginx's prefix and the
# process ids are kept in $SUSHIGO_CLUSTER_DIR (default: $TMPDIR/sushigo-local-cluster). $SUSHIGO names
# the command (default `sushigo`), $SUSHIGO_NGINX the nginx binary (default: `nginx` on PATH, or
# /usr/sbin/nginx; not $NGINX, which nginx itself reads as a list of inherited sockets).
# Extra options for every process go in $SUSHIGO_SERVE_OPTIONS (word-split). With N > 1 the database
# must be PostgreSQL: the processes share its tables, each table owned by one of them at a time.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
state=${SUSHIGO_CLUSTER_DIR:-${TMPDIR:-/tmp}/sushigo-local-cluster}
sushigo=${SUSHIGO:-sushigo}

die() { echo "local-cluster: $*" >&2; exit 2; }

find_nginx() {
    if [ -n "${SUSHIGO_NGINX:-}" ]; then echo "$SUSHIGO_NGINX"; return; fi
    if command -v nginx >/dev/null 2>&1; then command -v nginx; return; fi
    if [ -x /usr/sbin/nginx ]; then echo /usr/sbin/nginx; return; fi
    die "nginx not found (Debian: apt-get install nginx; or set SUSHIGO_NGINX)"
}

wait_live() {  # port, pid, log: until /livez answers, the process dies, or 60 s pass
    tries=0
    while [ "$tries" -lt 600 ]; do
        if ! kill -0 "$2" 2>/dev/null; then die "the process on port $1 ended: see $3"; fi
        if python3 -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$1/livez', timeout=1)" \
            >/dev/null 2>&1; then return 0; fi
        sleep 0.1
        tries=$((tries + 1))
    done
    die "the process on port $1 did not answer /livez in 60 s: see $3"
}

up() {
    [ $# -eq 3 ] || die "usage: $0 up N PORT DATABASE_URL"
    n=$1 port=$2 url=$3
    case "$n" in ''|*[!0-9]*) die "N must be a number, not '$n'";; esac
    case "$port" in ''|*[!0-9]*) die "PORT must be a number, not '$port'";; esac
    [ "$n" -ge 1 ] || die "N must be at least 1"
    [ ! -e "$state/pids" ] || die "already up (see $state/pids); run '$0 down' first"
    case "$url" in
        sqlite*) [ "$n" -eq 1 ] || die "N > 1 needs PostgreSQL: SQLite is one process's database";;
    esac
    nginx=$(find_nginx)
    mkdir -p "$state/nginx"
    : > "$state/pids"
    : > "$state/nginx/sushigo-upstreams.conf"
    i=1
    while [ "$i" -le "$n" ]; do
        p=$((port + i))
        # shellcheck disable=SC2086
        $sushigo serve --host 127.0.0.1 --port "$p" --database "$url" --forwarded-header X-Real-IP \
            ${SUSHIGO_SERVE_OPTIONS:-} >"$state/app$i.log" 2>&1 &
        pid=$!
        echo "$pid" >> "$state/pids"
        wait_live "$p" "$pid" "$state/app$i.log"
        echo "server 127.0.0.1:$p max_fails=1 fail_timeout=5s;" >> "$state/nginx/sushigo-upstreams.conf"
        echo "app$i pid $pid port $p"
        i=$((i + 1))
    done
    sed "s/listen 8080;/listen $port;/" "$here/nginx.conf" > "$state/nginx/nginx.conf"
    "$nginx" -p "$state/nginx/" -c "$state/nginx/nginx.conf" -t >"$state/nginx.log" 2>&1 \
        || { cat "$state/nginx.log" >&2; down; die "nginx refused the configuration"; }
    "$nginx" -p "$state/nginx/" -c "$state/nginx/nginx.conf" >>"$state/nginx.log" 2>&1 \
        || { cat "$state/nginx.log" >&2; down; die "nginx did not start"; }
    tries=0
    while [ ! -s "$state/nginx/nginx.pid" ] && [ "$tries" -lt 100 ]; do sleep 0.1; tries=$((tries + 1)); done
    echo "nginx pid $(cat "$state/nginx/nginx.pid") port $port"
    echo "local-cluster: http://127.0.0.1:$port/"
}

down() {
    if [ -f "$state/nginx/nginx.pid" ]; then
        kill -TERM "$(cat "$state/nginx/nginx.pid")" 2>/dev/null || true
    fi
    if [ -f "$state/pids" ]; then
        for pid in $(cat "$state/pids"); do kill -TERM "$pid" 2>/dev/null || true; done
        tries=0
        for pid in $(cat "$state/pids"); do
            while kill -0 "$pid" 2>/dev/null && [ "$tries" -lt 150 ]; do sleep 0.1; tries=$((tries + 1)); done
            kill -KILL "$pid" 2>/dev/null || true
        done
        rm -f "$state/pids"
    fi
    rm -f "$state/nginx/nginx.pid"
}

case "${1:-}" in
    up) shift; up "$@" ;;
    down) shift; down ;;
    *) die "usage: $0 up N PORT DATABASE_URL | $0 down" ;;
esac
