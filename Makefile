# Menagerie: `make run` serves the app on SQLite, `make test` runs every test.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
DATABASE_URL ?= sqlite+aiosqlite:///./menagerie.db

.PHONY: run test install install-dev migrate clean

$(PY):
	$(PYTHON) -m venv $(VENV)

install: $(PY)
	$(PY) -m pip install -q -e .

install-dev: $(PY)
	$(PY) -m pip install -q -e '.[dev]'

run: install
	DATABASE_URL='$(DATABASE_URL)' $(VENV)/bin/menagerie serve --host $(HOST) --port $(PORT)

migrate: install
	DATABASE_URL='$(DATABASE_URL)' $(VENV)/bin/menagerie migrate

test: install-dev
	VENV=$(VENV) bash scripts/run-tests.sh

clean:
	rm -rf build dist *.egg-info .pytest_cache .hypothesis
