#!/usr/bin/env bash
# Soak the browser suite: run `pytest tests/e2e` N times in a row while a second, CPU-heavy
# process runs beside it (a busy loop on one core, so a 2-core machine is loaded the way CI is
# when another job runs), then report every failure with its test name.
#
#   scripts/e2e-soak.sh N            (N defaults to 5)
#
# Each run is an ordinary pytest process: no retry plugin, and a skipped or xfailed browser test
# counts as a failure of the run (CI=true also turns a missing Chromium into a failure). The
# runs' JUnit reports, outputs and the test server's logs stay in test-artifacts/soak/. Exit
# status 0 only when every run passed.
set -uo pipefail
cd "$(dirname "$0")/.."

N=${1:-5}
if ! [[ "$N" =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: $0 N   (N runs of pytest tests/e2e, N >= 1)" >&2
    exit 2
fi
PY=${VENV:-.venv}/bin/python
if [ ! -x "$PY" ]; then
    echo "e2e-soak: $PY is missing (make install-dev first)" >&2
    exit 2
fi
OUT=test-artifacts/soak
rm -rf "$OUT"
mkdir -p "$OUT"
export CI=true

# the load: one core busy for as long as the soak runs (hashing, so it is real CPU work)
"$PY" -c '
import hashlib, os, signal, sys
signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
h = b"menagerie"
while True:
    for _ in range(100000):
        h = hashlib.sha256(h).digest()
' &
LOAD=$!
trap 'kill "$LOAD" 2>/dev/null; wait "$LOAD" 2>/dev/null' EXIT INT TERM
echo "e2e-soak: $N run(s) of pytest tests/e2e beside a CPU-heavy process (pid $LOAD)"

passed=0
for i in $(seq 1 "$N"); do
    start=$(date +%s)
    "$PY" -m pytest tests/e2e -q -p no:cacheprovider -p no:rerunfailures -p no:flaky \
        -rfEsx --junitxml="$OUT/run-$i.xml" > "$OUT/run-$i.log" 2>&1
    rc=$?
    secs=$(( $(date +%s) - start ))
    # the test server's log of this run (tests/e2e/conftest.py leaves it in test-artifacts/)
    for f in test-artifacts/server-*.log; do [ -e "$f" ] && mv "$f" "$OUT/run-$i-$(basename "$f")"; done
    # failures, errors, skips and xfails of this run, one line each, with the test's name
    "$PY" - "$OUT/run-$i.xml" "$rc" > "$OUT/run-$i.failures" <<'PYEOF'
import sys
import xml.etree.ElementTree as ET

path, rc = sys.argv[1], int(sys.argv[2])
try:
    root = ET.parse(path).getroot()
except (OSError, ET.ParseError) as exc:
    print(f"(no test report: pytest exited {rc}: {exc})")
    sys.exit(0)
total = 0
for case in root.iter("testcase"):
    total += 1
    module = case.get("classname", "").replace(".", "/")
    name = f"{module}.py::{case.get('name', '')}"
    for tag in ("failure", "error", "skipped"):
        for el in case.findall(tag):
            what = {"failure": "FAILED", "error": "ERROR", "skipped": "SKIPPED"}[tag]
            if tag == "skipped" and el.get("type") == "pytest.xfail":
                what = "XFAILED"
            msg = (el.get("message") or el.text or "").strip().splitlines()
            print(f"{what} {name}: {msg[0][:300] if msg else ''}")
if total == 0:
    print(f"(no test ran: pytest exited {rc})")
elif rc != 0 and not any(True for _ in root.iter("failure")) and not any(True for _ in root.iter("error")):
    print(f"(pytest exited {rc})")
PYEOF
    if [ "$rc" -eq 0 ] && [ ! -s "$OUT/run-$i.failures" ]; then
        passed=$((passed + 1))
        echo "run $i/$N: passed ($(tail -n 1 "$OUT/run-$i.log" | tr -d '='), ${secs} s)"
    else
        echo "run $i/$N: FAILED (${secs} s, pytest exit $rc; output in $OUT/run-$i.log)"
        sed 's/^/    /' "$OUT/run-$i.failures"
    fi
done

echo "e2e-soak: $passed of $N runs passed"
if [ "$passed" -ne "$N" ]; then
    echo "failures:"
    for i in $(seq 1 "$N"); do
        [ -s "$OUT/run-$i.failures" ] && sed "s/^/  run $i: /" "$OUT/run-$i.failures"
    done
    exit 1
fi
exit 0
