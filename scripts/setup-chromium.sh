#!/usr/bin/env bash
# Make sure Debian's Chromium is at /usr/bin/chromium for the browser (e2e) tests.
# Tries the install first and refreshes the package lists only when that fails.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
    exit 0
fi
if [ "$(id -u)" != "0" ]; then
    echo "setup-chromium.sh: /usr/bin/chromium is missing and we are not root; skipping" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y chromium >/dev/null; then
    apt-get update >/dev/null
    apt-get install -y chromium >/dev/null
fi
test -x /usr/bin/chromium
