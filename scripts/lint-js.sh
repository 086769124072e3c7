#!/usr/bin/env bash
# ESLint on the browser client (static/js, static/sw.js), as scripts/run-tests.sh runs it.
# ESLint comes from the npm registry at the versions package-lock.json pins (`npm ci`, once per
# change of the lock). Without Node.js and npm the check is skipped with a warning rather than
# failing the suite: the machines this project runs on have them (docs/codehealth.md).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "lint-js.sh: node/npm not found: the JavaScript lint is skipped" >&2
    exit 0
fi
# (re)install when node_modules is missing or older than the lock
# A download can stall without npm's own timeout ending it (a clean-clone CI run of 2026-12-05
# hung 13 minutes in npm ci, the registry answering fine): each attempt is bounded, three tries.
if [ ! -x node_modules/.bin/eslint ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    for attempt in 1 2 3; do
        if timeout 300 npm ci --no-audit --no-fund --loglevel=error --fetch-timeout=60000; then
            break
        fi
        if [ "$attempt" = 3 ]; then
            echo "lint-js.sh: npm ci failed three times" >&2
            exit 1
        fi
        echo "lint-js.sh: npm ci failed or stalled (attempt $attempt), trying again" >&2
    done
fi
node_modules/.bin/eslint static/js static/sw.js
