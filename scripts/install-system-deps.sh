#!/usr/bin/env bash
# The system packages the tests and `npm run dev` use, installed when missing: poppler-utils (pdfsig,
# pdftotext, pdftoppm) and qpdf validate sealed PDFs; chromium runs local Browser Rendering (HTML and DOCX
# templates, thumbnails) and the real-browser tests; fonts-liberation and fonts-dejavu-core are the fonts
# printed templates and the DOCX page-image references (test/fixtures/docx/pages) were drawn with.
#
# `npm run dev`, `npm test`, `npm run test:unit` and `npm run test:e2e` run this first. Quiet and instant
# when nothing is missing. When something is, it installs it as root or through passwordless sudo;
# otherwise it stops at once (exit 1) naming the one command to run. `--check` only reports.
set -euo pipefail

need=()
command -v pdfsig >/dev/null 2>&1 || need+=(poppler-utils)
command -v qpdf >/dev/null 2>&1 || need+=(qpdf)
command -v "${CHROMIUM:-chromium}" >/dev/null 2>&1 || need+=(chromium)
[ -d /usr/share/fonts/truetype/liberation ] || need+=(fonts-liberation)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf ] || need+=(fonts-dejavu-core)

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi

command_to_run="sudo bash scripts/install-system-deps.sh"
stop() {
  echo "Missing system packages: ${need[*]}." >&2
  echo "$1" >&2
  echo "Run once, then try again:  $command_to_run" >&2
  exit 1
}

if [ "${1:-}" = "--check" ]; then stop "(--check: nothing was installed)"; fi
if ! command -v apt-get >/dev/null 2>&1; then
  command_to_run="install ${need[*]} with your system's package manager (CHROMIUM=<path> names another Chromium)"
  stop "This machine has no apt-get (the script knows Debian and Ubuntu)."
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then
    sudo="sudo -n"
  else
    stop "Installing them needs root, and sudo here asks for a password (or is missing)."
  fi
fi
echo "Installing ${need[*]} …" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
