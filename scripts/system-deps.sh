#!/usr/bin/env bash
# Debian packages the tests need: Chromium for the browser tests (Playwright cannot download
# its own here) and caddy, which checks deploy/Caddyfile (tests/ops/test_compose.py) and
# stands in front of a real server for proxy sign-in (tests/accounts/test_proxy_caddy.py).
set -euo pipefail
missing=()
if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
  missing+=(chromium)
fi
if ! command -v caddy >/dev/null 2>&1; then
  missing+=(caddy)
fi
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "Missing: ${missing[*]}: install Debian's packages (apt-get install ${missing[*]})." >&2
    exit 1
  fi
else
  SUDO=""
fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
