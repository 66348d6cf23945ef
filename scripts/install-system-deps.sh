#!/usr/bin/env bash
# Installs the Debian packages the tests use when they are missing: poppler-utils (pdfsig, pdftotext)
# and qpdf validate sealed PDFs (pdftoppm draws the DOCX page images); chromium and fonts-liberation run
# the real-browser tests (test/e2e, driven by playwright-core); fonts-dejavu-core is the serif printed
# DOCX templates name first, which the page-image references (test/fixtures/docx/pages) were drawn with.
# Safe to run repeatedly and quiet when nothing is missing; needs root (as on the CI and dev machines) or
# sudo.
set -euo pipefail

need=()
command -v pdfsig >/dev/null 2>&1 || need+=(poppler-utils)
command -v qpdf >/dev/null 2>&1 || need+=(qpdf)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
[ -d /usr/share/fonts/truetype/liberation ] || need+=(fonts-liberation)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf ] || need+=(fonts-dejavu-core)

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "Installing ${need[*]} …"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
