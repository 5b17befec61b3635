VENV := .venv
BIN := $(VENV)/bin
PYTHON ?= python3

.PHONY: setup run test test-sqlite test-postgres lint format migrate seed check browser-deps docker-dry-run bench clean

setup: $(VENV)/.installed static/vendor/htmx.min.js

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

static/vendor/htmx.min.js: package.json package-lock.json scripts/vendor.sh
	bash scripts/vendor.sh

run: setup
	$(BIN)/inference-atlas serve --host 127.0.0.1 --port 8000

migrate: setup
	$(BIN)/inference-atlas migrate

seed: setup
	$(BIN)/inference-atlas seed

check: setup
	$(BIN)/inference-atlas check

browser-deps:
	bash scripts/system-deps.sh

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# The suite twice: on SQLite (the default database), then on a throwaway PostgreSQL server.
test: setup browser-deps lint test-sqlite test-postgres

test-sqlite: setup
	$(BIN)/pytest -m "not postgres"

# Installs Debian's postgresql when it is missing (root). PG_PYTEST_ARGS narrows the run.
PG_PYTEST_ARGS ?=
test-postgres: setup
	bash scripts/postgres.sh $(BIN)/pytest $(PG_PYTEST_ARGS)

bench: setup
	command -v wrk >/dev/null || (apt-get update -qq && apt-get install -y -qq wrk)
	$(BIN)/python scripts/bench.py --scale 1 --scale 10 --duration 2 --rounds 2 $(BENCH_ARGS)

docker-dry-run: setup
	$(BIN)/python scripts/dockerfile_dry_run.py

clean:
	rm -rf $(VENV) node_modules static/vendor test-artifacts inference_atlas.db
