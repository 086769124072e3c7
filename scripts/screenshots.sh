#!/usr/bin/env bash
# Regenerate the README's screenshots (docs/screenshots/) from games against the greedy bot
# dealt from fixed seeds: tests/e2e/test_screenshots.py (a turn and keep 4 of 8 on laptops and
# phones), tests/e2e/test_map_labels.py (a full zoo's labels), tests/e2e/test_card_zoom.py and
# tests/e2e/test_since_turn.py (the whole card, the moves since your turn). Needs Chromium
# (scripts/setup-chromium.sh). Look at the pictures before committing them.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
MENAGERIE_SCREENSHOTS="$tmp" nice "$PY" -m pytest -q tests/e2e/test_screenshots.py
nice "$PY" -m pytest -q tests/e2e/test_map_labels.py tests/e2e/test_card_zoom.py tests/e2e/test_since_turn.py
out=docs/screenshots
for f in turn-1440x900 turn-1920x1080 turn-390x844-de keep-1440x900 keep-390x844-uk; do
  cp "$tmp/$f.png" "$out/$f.png"
done
for f in card-zoom-1440x900 card-zoom-390x844 since-turn-1440x900 map-labels-de-1180 map-labels-uk-358; do
  cp "test-artifacts/$f.png" "$out/$f.png"
done
echo "docs/screenshots regenerated: look at them"
