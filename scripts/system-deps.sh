#!/usr/bin/env bash
# Debian packages the browser tests need: Chromium (Playwright cannot download its own here).
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "Chromium is missing: install Debian's chromium package (apt-get install chromium)." >&2
    exit 1
  fi
else
  SUDO=""
fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
