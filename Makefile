VENV := .venv
BIN := $(VENV)/bin
PYTHON ?= python3
# Compiled modules are kept (under .pycache/, not beside the sources) even where the
# environment says PYTHONDONTWRITEBYTECODE: `make test` starts a dozen Python processes, and
# each would otherwise compile the app and rewrite the tests' asserts again (~7 s CPU each).
unexport PYTHONDONTWRITEBYTECODE
export PYTHONPYCACHEPREFIX ?= $(CURDIR)/.pycache

.PHONY: setup run test test-sqlite test-fast test-data test-slow test-browser test-postgres lint \
	typecheck new-tier-times format migrate seed check browser-deps docker-dry-run bench clean \
	screenshots

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

# Debian's chromium (browser tests) and caddy (the Caddyfile check, proxy sign-in through
# forward_auth in the slow tier), when missing.
browser-deps:
	bash scripts/system-deps.sh

# lint-imports: the layer rules of docs/architecture.md ([tool.importlinter] in pyproject.toml).
lint: setup typecheck
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: setup
	$(BIN)/mypy

format: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Every tier once (tests/README.md): the fast tier, the real seed/, live servers and
# subprocesses, Chromium, then what the database matters for again on PostgreSQL. Each tier
# prints its slowest tests and its wall and CPU time; the times are listed again at the end.
test: setup browser-deps lint new-tier-times test-fast test-data test-slow test-browser test-postgres
	@echo "--- tier times"; cat $(TIER_TIMES)

new-tier-times:
	@rm -f $(TIER_TIMES)

# The SQLite tiers alone.
test-sqlite: test-fast test-data test-slow test-browser

# PYTEST_ARGS narrows every tier (e.g. PYTEST_ARGS=tests/accounts); a tier it leaves empty
# then passes, whereas in a full run an empty tier is a failure (scripts/test-tier.sh).
PYTEST_ARGS ?=
export TIER_TIMES ?= $(CURDIR)/test-artifacts/tier-times.txt
export TIER_MAY_BE_EMPTY := $(if $(strip $(PYTEST_ARGS)$(PG_PYTEST_ARGS)),1,)
# Two workers (pyproject's addopts) except for Chromium: two browsers, two servers and two
# test processes on two cores made timing-sensitive browser tests flaky (tests/README.md).
PYTEST := $(BIN)/pytest --durations=15
TIER := bash scripts/test-tier.sh

test-fast: setup
	$(TIER) fast $(PYTEST) $(PYTEST_ARGS)

test-data: setup
	$(TIER) data $(PYTEST) -m "data and not slow and not browser and not postgres" \
		$(PYTEST_ARGS)

test-slow: setup
	$(TIER) slow $(PYTEST) -m "slow and not browser and not postgres" $(PYTEST_ARGS)

test-browser: setup browser-deps
	$(TIER) browser $(PYTEST) -n 0 -m browser $(PYTEST_ARGS)

# The browser tier again, saving every page and part it checks as a PNG under
# test-artifacts/ and /tmp (named in each test) for people to look at; `make test` skips them.
screenshots: setup browser-deps
	ATLAS_SCREENSHOTS=1 $(PYTEST) -n 0 -m browser $(PYTEST_ARGS)

# The tests marked `database` or `postgres`, on a throwaway PostgreSQL server (Debian's
# postgresql is installed when missing: root). PG_PYTEST_ARGS narrows this tier alone.
PG_PYTEST_ARGS ?=
test-postgres: setup
	$(TIER) postgres bash scripts/postgres.sh $(PYTEST) -m "database or postgres" \
		$(PYTEST_ARGS) $(PG_PYTEST_ARGS)

bench: setup
	command -v wrk >/dev/null || (apt-get update -qq && apt-get install -y -qq wrk)
	$(BIN)/python scripts/bench.py --scale 1 --scale 10 --duration 2 --rounds 2 $(BENCH_ARGS)

docker-dry-run: setup
	$(BIN)/python scripts/dockerfile_dry_run.py

clean:
	rm -rf $(VENV) node_modules static/vendor test-artifacts .pycache inference_atlas.db
