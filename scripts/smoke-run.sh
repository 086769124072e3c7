#!/usr/bin/env bash
# Prove the README's run command on a fresh machine: a new venv with a runtime-only install
# (`pip install .`, no extras, so a module only the dev extras bring fails here), then
# `menagerie serve` on SQLite on a free port must answer /healthz and the home page.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
work=$(mktemp -d)
server_pid=
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

"$PYTHON" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q --disable-pip-version-check .
port=$("$work/venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
DATABASE_URL="sqlite+aiosqlite:///$work/smoke.db" MENAGERIE_SCHEDULER=true \
    "$work/venv/bin/menagerie" serve --host 127.0.0.1 --port "$port" >"$work/server.log" 2>&1 &
server_pid=$!

base="http://127.0.0.1:$port"
fetch() { "$work/venv/bin/python" - "$1" <<'PY'
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=5) as r:
    body = r.read().decode()
    print(r.status)
    print(body)
PY
}
for _ in $(seq 1 120); do
    if ! kill -0 "$server_pid" 2>/dev/null; then
        echo "smoke-run.sh: the server exited before serving:" >&2
        cat "$work/server.log" >&2
        exit 1
    fi
    if fetch "$base/healthz" >/dev/null 2>&1; then break; fi
    sleep 0.5
done
health=$(fetch "$base/healthz") || { echo "smoke-run.sh: /healthz did not answer" >&2; cat "$work/server.log" >&2; exit 1; }
home=$(fetch "$base/") || { echo "smoke-run.sh: the home page did not answer" >&2; cat "$work/server.log" >&2; exit 1; }
case "$home" in
    200*Menagerie*) ;;
    *) echo "smoke-run.sh: the home page is not the client:" >&2; echo "$home" | head -20 >&2; exit 1 ;;
esac
echo "smoke-run.sh: runtime-only install serves /healthz ($(echo "$health" | head -1)) and the home page on port $port"
