#!/usr/bin/env bash
# Installs the Debian packages the tests use when they are missing: poppler-utils (pdfsig) and qpdf
# validate sealed PDFs; chromium runs the real-browser tests (test/e2e). Safe to run repeatedly; needs
# root (as on the CI and dev machines) or sudo.
set -euo pipefail

need=()
command -v pdfsig >/dev/null 2>&1 || need+=(poppler-utils)
command -v qpdf >/dev/null 2>&1 || need+=(qpdf)
[ -x /usr/bin/chromium ] || need+=(chromium)

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "Installing ${need[*]} …"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
