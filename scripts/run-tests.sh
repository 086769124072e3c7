#!/usr/bin/env bash
# The whole test suite, as `make test` and CI run it:
#   1. PostgreSQL up with the test role and database (as root), Chromium present;
#   2. the import contracts (lint-imports), the linters and the type checker (ruff, mypy against
#      its baseline, ESLint on the client; docs/codehealth.md), then every test but the browser
#      ones, on SQLite and PostgreSQL;
#   3. the browser tests (tests/e2e) in a separate pytest process, if there are any.
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

"$PY" -m pytest tests --ignore=tests/e2e "$@"

if [ -n "$(find tests/e2e \( -name 'test_*.py' -o -name '*_test.py' \) -print -quit 2>/dev/null)" ]; then
    set +e
    "$PY" -m pytest tests/e2e
    rc=$?
    set -e
    # 5 = "no tests collected": fine for the browser run only
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 5 ]; then
        exit "$rc"
    fi
fi
