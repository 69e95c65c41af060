#!/bin/sh
# Installs the system packages the web tests need, only if they are missing (idempotent):
#   Debian's chromium (browser end-to-end tests, driven by Python Playwright; never `playwright install`)
#   Debian's postgresql (the server tests also run against a throwaway PostgreSQL server)
#   Debian's fonts-wqy-microhei (a CJK font: the Chinese browser tests measure real glyphs, not boxes)
#   Debian's nginx (the deploy tests put a real nginx with deploy/nginx.conf in front of the server)
# Needs root (or sudo) and apt; prints what it skips. Safe to run many times.
set -eu

need=""
if [ ! -x /usr/bin/chromium ]; then need="$need chromium"; fi
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then need="$need postgresql"; fi
if [ ! -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ]; then need="$need fonts-wqy-microhei"; fi
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then need="$need nginx"; fi

if [ -z "$need" ]; then
    echo "install-system-deps: chromium, postgresql, a CJK font and nginx are already installed"
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-system-deps: apt-get not found; install$need yourself (tests that need them are skipped)" >&2
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        echo "install-system-deps: not root and no sudo; cannot install$need (tests that need them are skipped)" >&2
        exit 0
    fi
fi

export DEBIAN_FRONTEND=noninteractive
echo "install-system-deps: installing$need"
$SUDO apt-get update -qq || true
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $need
# The test fixtures start their own throwaway server; the packaged cluster service is not needed.
$SUDO service nginx stop >/dev/null 2>&1 || true
