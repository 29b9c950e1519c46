#!/usr/bin/env bash
# Checks the static DocC site in headless Chromium: titles and content of the key pages,
# no broken internal links, screenshots of the module landing pages.
#   Scripts/check-docs.sh SITE_DIR [SCREENSHOT_DIR]     (default .build/docs-screenshots)
# Installs Debian's chromium when it is missing (a fresh CI machine). See Scripts/check-docs.py.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 SITE_DIR [SCREENSHOT_DIR]" >&2
    exit 2
fi
site=$1
shots=${2:-.build/docs-screenshots}

if ! command -v chromium >/dev/null 2>&1 && [ -z "${CHROMIUM:-}" ]; then
    echo "check-docs: chromium not found; installing Debian's chromium" >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium
fi

exec python3 "$(dirname "$0")/check-docs.py" "$site" --screenshots "$shots"
