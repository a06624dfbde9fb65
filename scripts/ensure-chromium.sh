#!/usr/bin/env bash
# The end-to-end tests drive the system Chromium; install it from Debian's packages when it is missing.
set -euo pipefail
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-liberation >/dev/null
else
  echo "Chromium is missing: install Debian's 'chromium' package (sudo apt-get install -y chromium) or set CHROMIUM_PATH." >&2
  exit 1
fi
