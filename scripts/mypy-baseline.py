"""mypy with a baseline that may only shrink (scripts/run-tests.sh; docs/codehealth.md).

Runs mypy as pyproject.toml configures it and counts its errors per file. It fails when a file
has more errors than ``mypy-baseline.txt`` allows (a new error), and also when it has fewer (the
baseline is stale: lower it with ``--update``, so that a fixed error cannot come back unseen).

    python scripts/mypy-baseline.py            # check
    python scripts/mypy-baseline.py --update   # write the lower counts (never higher ones;
                                               # without a baseline file: the first one)
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "mypy-baseline.txt"
ERROR = re.compile(r"^(?P<path>[^:\s]+\.py):\d+: error: ")
HEADER = ("# mypy errors per file that are allowed for now (scripts/mypy-baseline.py): these counts\n"
          "# may only go down; a file that is not listed must have none.\n")


def current() -> tuple[Counter[str], str]:
    run = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True,
                         text=True)
    if run.returncode not in (0, 1):  # 2: a crash or a bad configuration
        sys.exit(f"mypy did not run:\n{run.stdout}{run.stderr}")
    counts: Counter[str] = Counter()
    for line in run.stdout.splitlines():
        m = ERROR.match(line)
        if m:
            counts[m["path"]] += 1
    return counts, run.stdout


def baseline() -> Counter[str]:
    counts: Counter[str] = Counter()
    if BASELINE.exists():
        for line in BASELINE.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                path, n = line.split()
                counts[path] = int(n)
    return counts


def main(argv: list[str]) -> int:
    counts, output = current()
    allowed = baseline()
    grew = {p: (n, allowed[p]) for p, n in counts.items() if n > allowed[p]}
    shrank = {p: (counts[p], n) for p, n in allowed.items() if counts[p] < n}
    if grew and BASELINE.exists():
        for line in output.splitlines():  # the errors of the files that have new ones
            m = ERROR.match(line)
            if m and m["path"] in grew:
                print(line)
        for path, (n, was) in sorted(grew.items()):
            print(f"mypy-baseline: {path}: {n} errors, the baseline allows {was}")
        print("mypy-baseline: fix the new errors (the baseline only goes down)")
        return 1
    if "--update" in argv:
        BASELINE.write_text(HEADER + "".join(f"{p} {n}\n" for p, n in sorted(counts.items())
                                             if n))
        print(f"mypy-baseline: {sum(counts.values())} errors in {len(+counts)} files written")
        return 0
    if shrank:
        for path, (n, was) in sorted(shrank.items()):
            print(f"mypy-baseline: {path}: {n} errors, fewer than the baseline's {was}")
        print("mypy-baseline: well done; lower the baseline with "
              "`python scripts/mypy-baseline.py --update` and commit mypy-baseline.txt")
        return 1
    print(f"mypy-baseline: {sum(counts.values())} known errors in {len(+counts)} files, "
          "no new ones")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
