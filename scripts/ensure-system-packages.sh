#!/usr/bin/env bash
# What the tests need from Debian's packages, installed when missing: the system Chromium the end-to-end tests
# drive, nginx (with curl) that the deploy example's test puts in front of two instances, and poppler's
# pdftotext that reads knowledge PDFs (the server falls back to pdf.js without it; the tests cover both).
set -euo pipefail
missing=()
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || missing+=(chromium fonts-liberation)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v curl >/dev/null || missing+=(curl)
command -v pdftotext >/dev/null || missing+=(poppler-utils)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "Missing Debian packages: ${missing[*]} (sudo apt-get install -y ${missing[*]}; or set CHROMIUM_PATH)." >&2
  exit 1
fi
