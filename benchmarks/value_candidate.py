"""Write a candidate value file: a value.json with single weights set (the solo screens of
docs/bots.md, "Value3", were made this way).

    .venv/bin/python benchmarks/value_candidate.py /tmp/cand.json engine/arknova/data/value.json \\
        solo=ready*phase=0.15 solo=build*phase=0.15 solo.money_cap=50

``PART=FEATURE=WEIGHT`` sets a weight (``PART`` is ``duel`` or ``solo``); ``PART.KEY=NUMBER``
or ``KEY=NUMBER`` (no second ``=``) sets a number of the part or of the file (``money_cap``,
``tempo``, ``progress``); ``progress_on=markers`` sets what the tempo term counts, ``hand_homes=matched`` (or
``duel.hand_homes=matched``) whether one free enclosure houses one hand animal (handhomes.py). The base file is widened to today's features first (an older file's
missing features at 0) and the result validated.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.arknova.bot import learned  # noqa: E402

#: Settings whose value is a word, not a number.
WORDS = ("progress_on", "hand_homes")


def main(argv: list[str]) -> None:
    out, base, *sets = argv
    data = learned.validate(json.loads(Path(base).read_text()))
    for item in sets:
        head, _, value = item.rpartition("=")
        if "=" in head:  # PART=FEATURE=WEIGHT
            part, feature = head.split("=", 1)
            model = data[part]
            model["weights"][model["features"].index(feature)] = float(value)
        elif "." in head:  # PART.KEY=NUMBER
            part, key = head.split(".", 1)
            data[part][key] = value if key in WORDS else float(value)
        else:  # a number of the file, or ``progress_on`` / ``hand_homes`` (a word)
            data[head] = value if head in WORDS else float(value)
    data["about"] = f"candidate from {base}: {' '.join(sets)}"
    learned.validate(data)
    Path(out).write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
