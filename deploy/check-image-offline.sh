#!/bin/sh
# Builds deploy/Dockerfile without a Docker engine or a container registry, then starts the image's
# server as its non-root user and asks it for /livez, /readyz, the lobby and a new table.
#
# For machines like the development one (docs/deploy.md, "Checking the image without Docker"): no Docker
# daemon, no registry, no permission to start containers, but Debian's package mirror and the Python
# package index are reachable. It stands Debian bookworm's own Python 3.11 in for `python:3.11-slim`
# (a venv at /usr/local, so `python` and `pip` sit where the official image has them), builds with
# buildah's chroot isolation (podman build), and runs the built filesystem under chroot as uid 10001.
#
#     sudo deploy/check-image-offline.sh [WORKDIR]      # about 5 minutes; needs root
#
# Needs: podman (with buildah), debootstrap, curl (apt-get install podman debootstrap curl).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/sushigo-image-check}
port=${SUSHIGO_CHECK_PORT:-18765}
podman="podman --storage-driver vfs"
mkdir -p "$work"

if ! $podman image exists docker.io/library/python:3.11-slim; then
    echo "making a stand-in for python:3.11-slim (Debian bookworm, Python 3.11) in $work/rootfs" >&2
    debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates bookworm \
        "$work/rootfs" http://deb.debian.org/debian >"$work/debootstrap.log"
    chroot "$work/rootfs" python3 -m venv /usr/local
    rm -rf "$work/rootfs/var/cache/apt/archives/"*.deb
    tar -C "$work/rootfs" -c . | $podman import - localhost/py311-standin:latest >/dev/null
    $podman tag localhost/py311-standin:latest docker.io/library/python:3.11-slim
fi

# The build context: the committed tree only (what a clean clone holds).
rm -rf "$work/ctx" && mkdir -p "$work/ctx"
git -C "$root" archive HEAD | tar -x -C "$work/ctx"
# The host's pip configuration (index, certificates, local wheels) is lent to the RUN steps.
mounts=""
for path in /etc/pip.conf /etc/xdg/pip /etc/ssl/certs /opt/wheels /opt/pypi /opt/pypi-more; do
    [ -e "$path" ] && mounts="$mounts -v $path:$path:ro"
done
# shellcheck disable=SC2086
$podman build --pull=never --isolation chroot --network host $mounts \
    -f "$work/ctx/deploy/Dockerfile" -t localhost/sushigo:check "$work/ctx" >"$work/build.log" 2>&1 \
    || { tail -20 "$work/build.log" >&2; exit 1; }
echo "built localhost/sushigo:check ($($podman image inspect localhost/sushigo:check --format '{{.Size}}') bytes)"

user=$($podman image inspect localhost/sushigo:check --format '{{.Config.User}}')
mnt=$($podman image mount localhost/sushigo:check)
uid=$(awk -F: -v u="$user" '$1 == u {print $3 ":" $4}' "$mnt/etc/passwd")
[ -n "$uid" ] && [ "${uid%%:*}" != 0 ] || { echo "the image's user $user is missing or root" >&2; exit 1; }
mount --bind /proc "$mnt/proc"
mount --bind /dev "$mnt/dev"
cleanup() {
    kill "$server" 2>/dev/null || true
    sleep 1
    umount -l "$mnt/proc" "$mnt/dev" 2>/dev/null || true
    $podman image unmount localhost/sushigo:check >/dev/null 2>&1 || true
}
env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/var/lib/sushigo PYTHONUNBUFFERED=1 \
    /usr/sbin/chroot --userspec="$uid" "$mnt" sh -c \
    "cd /var/lib/sushigo && exec sushigo serve --host 127.0.0.1 --port $port --data-dir /var/lib/sushigo" \
    >"$work/serve.log" 2>&1 &
server=$!
trap cleanup EXIT
for _ in $(seq 60); do
    curl -fs -m 2 "http://127.0.0.1:$port/livez" >/dev/null 2>&1 && break
    sleep 0.5
done
curl -fsS -m 5 "http://127.0.0.1:$port/livez" && echo
curl -fsS -m 5 "http://127.0.0.1:$port/readyz" && echo
curl -fsS -m 5 -o /dev/null -w "lobby: HTTP %{http_code}\n" "http://127.0.0.1:$port/"
curl -fsS -m 10 -H 'Content-Type: application/json' \
    -d '{"game":"sushi-go","seats":[{"kind":"human"},{"kind":"bot","bot":"mcts"}]}' \
    -o /dev/null -w "new table: HTTP %{http_code}\n" "http://127.0.0.1:$port/api/tables"
owner=$(stat -c %u "$mnt/var/lib/sushigo/sushigo.sqlite3")
[ "$owner" = "${uid%%:*}" ] || { echo "the database belongs to uid $owner, not the image's user" >&2; exit 1; }
echo "the image serves as $user (uid ${uid%%:*}); its database is in its volume /var/lib/sushigo"
