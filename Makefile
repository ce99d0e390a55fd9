# The two commands of the README: `make run` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint format serve clean-db lock audit bench bench-clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed; $(PYTHON) is " + sys.version.split()[0])'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall only when pyproject.toml or the lock changes, so a second `make run` starts at once.
# requirements.lock pins every package to the versions tested and audited (`make lock` rewrites it).
# uv (pinned here, installed into .venv by pip) installs the locked packages in about 5 s where
# pip takes about 20 s, so a fresh clone's first `make run` or `make test` starts that much
# sooner. Where uv cannot be installed or cannot reach an index (it does not read pip's
# configuration), pip installs them as before.
UV_VERSION := 0.13.9
install = ($(BIN)/pip install --quiet uv==$(UV_VERSION) \
	  && $(BIN)/uv pip install --quiet --python $(BIN)/python -c requirements.lock -e $(1)) \
	|| $(BIN)/pip install --quiet -c requirements.lock -e $(1)

$(VENV)/.installed-run: pyproject.toml requirements.lock | $(BIN)/python
	$(call install,.)
	@touch $@

$(VENV)/.installed-dev: pyproject.toml requirements.lock | $(BIN)/python
	$(call install,'.[dev]')
	@touch $@ $(VENV)/.installed-run

run: $(VENV)/.installed-run
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py seed_demo
	@echo
	@echo "  Mordheim Campaigns: http://$(HOST):$(PORT)/   (Ctrl-C stops it)"
	@echo
	DEBUG=1 $(BIN)/python manage.py runserver $(HOST):$(PORT)

# pytest's own exit code is make's: 5 (no tests collected) fails like any other error.
# Two workers (pytest-xdist; CI has two cores), each on a test database of its own on the one
# embedded server. --dist loadfile hands a worker whole modules, the longest first
# (tests/conftest.py FIRST) and the rest in collection order, so that the data a module builds
# once (tests/sharing.py) is built once, and the small modules at the end even out the
# workers. Handing out single tests (--dist load, worksteal) split modules between the
# workers, and each built the module's data again.
# PYTEST_ARGS comes last and wins: PYTEST_ARGS="-n 0 tests/rules" runs in this process alone,
# PYTEST_ARGS="-n logical" uses every core of a bigger machine.
PYTEST_XDIST ?= -n 2 --dist loadfile --no-loadscope-reorder
# The suite keeps Python's bytecode caches (the git-ignored __pycache__ folders) even where
# PYTHONDONTWRITEBYTECODE is set, as it is on the machines we work on: the workers and the dozens of
# Python processes the tests start (manage.py, the server's start and stop, the deploy checks)
# each compiled the whole app again. On a fresh clone the suite took 60 s more CPU without them
# (490 s against 430 s) and about 40 s more time.
test: lint
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest $(PYTEST_XDIST) $(PYTEST_ARGS)

# ruff, and import-linter's contract that the layers point down (pyproject.toml).
lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

format: $(VENV)/.installed-dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# After changing dependencies in pyproject.toml: install without the old pins, then pin what was installed.
lock: | $(BIN)/python
	$(BIN)/pip install --quiet --upgrade -e '.[dev]'
	@echo "# Pinned versions of every dependency (dev extra included). Written by \`make lock\`; audited by \`make audit\`." > requirements.lock
	$(BIN)/pip freeze --exclude-editable --exclude uv >> requirements.lock  # uv only installs
	@touch $(VENV)/.installed-dev $(VENV)/.installed-run

# Known vulnerabilities in the locked dependencies (pip-audit; see .ci/audit.py).
audit: $(VENV)/.installed-dev
	$(BIN)/python .ci/audit.py

# The benchmark (not part of `make test`): a large league, gunicorn under load, the targets
# (README, Benchmark). The league is built once into .bench-pgdata; `make bench-clean` drops it.
bench: $(VENV)/.installed-dev
	$(BIN)/python bench/run.py

bench-clean:
	rm -rf .bench-pgdata .bench-tmp bench-results.json

# Production-like: gunicorn behind a reverse proxy, static files from whitenoise.
serve: $(VENV)/.installed-run
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	DB_CONN_MAX_AGE=$${DB_CONN_MAX_AGE:-60} $(BIN)/gunicorn core.wsgi --bind $(HOST):$(PORT) --workers 2

# Stops nothing: the embedded server stops with the last process using it.
clean-db:
	rm -rf .pgdata
