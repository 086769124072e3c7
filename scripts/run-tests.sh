#!/usr/bin/env bash
# The whole test suite, as `make test` and CI run it:
#   1. PostgreSQL up with the test role and database (as root), Chromium present;
#   2. the import contracts (lint-imports), the linters and the type checker (ruff, mypy against
#      its baseline, ESLint on the client; docs/codehealth.md), then every test but the browser
#      ones, on SQLite and PostgreSQL;
#   3. the browser tests (tests/e2e), if there are any, in a second pytest process started
#      before step 2's tests and run beside them; their output is printed at the end.
# Extra arguments go to the first pytest run.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${VENV:-.venv}/bin/python

if [ "$(id -u)" = "0" ]; then
    url=$(bash scripts/setup-postgres.sh)
    export TEST_POSTGRES_URL=${TEST_POSTGRES_URL:-$url}
    bash scripts/setup-chromium.sh
elif [ -z "${TEST_POSTGRES_URL:-}" ]; then
    echo "run-tests.sh: not root and TEST_POSTGRES_URL unset: PostgreSQL tests will be skipped" >&2
fi
export TEST_POSTGRES_URL=${TEST_POSTGRES_URL:-}

# the layers of docs/architecture.md (import-linter contracts in pyproject.toml)
"${VENV:-.venv}/bin/lint-imports"
# the linter, the type checker (its errors per file may only go down), the client's linter
"${VENV:-.venv}/bin/ruff" check .
"$PY" scripts/mypy-baseline.py
bash scripts/lint-js.sh

# The browser tests (tests/e2e: a server of their own on SQLite, Chromium) run beside the rest
# (PostgreSQL and SQLite in temporary files): two processes on two cores, about half the wall
# time of one after the other. Their output goes to a file, printed when both are done.
e2e_log=""
e2e_pid=""
if [ -n "$(find tests/e2e \( -name 'test_*.py' -o -name '*_test.py' \) -print -quit 2>/dev/null)" ]; then
    e2e_log=$(mktemp "${TMPDIR:-/tmp}/menagerie-e2e.XXXXXX")
    # (a whole game through the page takes more than the 5 minutes after which pytest would
    # print every thread's stack; the tests keep their own time limits)
    "$PY" -m pytest -o faulthandler_timeout=1200 --durations=15 tests/e2e > "$e2e_log" 2>&1 &
    e2e_pid=$!
    trap 'kill "$e2e_pid" 2>/dev/null || true' INT TERM
fi

set +e
"$PY" -m pytest tests --ignore=tests/e2e --durations=30 "$@"
rc=$?
e2e_rc=0
if [ -n "$e2e_pid" ]; then
    wait "$e2e_pid"
    e2e_rc=$?
    echo
    echo "==================== browser tests (tests/e2e, run beside the rest) ===================="
    cat "$e2e_log"
    rm -f "$e2e_log"
    # 5 = "no tests collected": fine for the browser run only
    if [ "$e2e_rc" -eq 5 ]; then
        e2e_rc=0
    fi
fi
set -e
echo "run-tests.sh: tests exit $rc, browser tests exit $e2e_rc"
if [ "$rc" -ne 0 ]; then
    exit "$rc"
fi
exit "$e2e_rc"
