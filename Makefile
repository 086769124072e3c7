# Menagerie: `make run` serves the app on SQLite, `make test` runs every test.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
DATABASE_URL ?= sqlite+aiosqlite:///./menagerie.db

.PHONY: run test install install-dev migrate smoke clean

$(PY):
	$(PYTHON) -m venv $(VENV)

# the stamps make `make run` / `make test` reinstall only when pyproject.toml changed
$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[dev]'
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed

install-dev: $(VENV)/.installed-dev

run: install
	DATABASE_URL='$(DATABASE_URL)' $(VENV)/bin/menagerie serve --host $(HOST) --port $(PORT)

migrate: install
	DATABASE_URL='$(DATABASE_URL)' $(VENV)/bin/menagerie migrate

# the README's run command on a runtime-only install (no extras), in a throwaway venv
smoke:
	bash scripts/smoke-run.sh

test: install-dev
	VENV=$(VENV) bash scripts/run-tests.sh

clean:
	rm -rf build dist *.egg-info .pytest_cache .hypothesis
