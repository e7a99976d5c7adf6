# The two commands that set up everything on a fresh machine: `make play`, `make test`.
# Each installs into .venv what it needs (docs/install.md): playing the package alone
# (what `pip install mummy` gives), testing it with every extra but the examples'.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
EXTRAS := dev,cluster,postgres,research,print,analysis
# Two stamps, each newer than pyproject.toml once its install is done. The full install
# holds the play install, so it touches both: `make play` after `make test` installs
# nothing, and never removes what the tests need (pip only adds). The play install leaves
# the full stamp alone: `make test` after `make play` still installs the extras.
PLAY_STAMP := $(VENV)/.play-stamp
FULL_STAMP := $(VENV)/.installed-stamp

.PHONY: play terminal test test-fast bench bench-quick lint clean

$(PLAY_STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $(PLAY_STAMP)

$(FULL_STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[$(EXTRAS)]'
	touch $(FULL_STAMP) $(PLAY_STAMP)

## The game server with the browser client, on an embedded SQLite file (./mummy.db);
## it prints the address to open. ARGS="--port 8080 --db postgresql://..." (PostgreSQL
## needs the postgres extra: $(VENV)/bin/pip install -e '.[postgres]')
play: $(PLAY_STAMP)
	$(VENV)/bin/mummy serve $(ARGS)

## Terminal play of The Mummy's Tomb. ARGS="--seed 7 --players 2"
terminal: $(PLAY_STAMP)
	$(VENV)/bin/mummy play tomb $(ARGS)

# The suite on every core (pytest-xdist), each test file on one worker (a file's tests share
# its fixtures: a browser, a server), in a new random order each run (pytest-randomly prints
# its seed; `make test ARGS="-p randomly --randomly-seed=N"` runs that order again).
# docs/testing.md says which slice to run when.
XDIST := -n auto --dist loadfile
#: The date sweep: the daily challenge's tests run on this many more fixed days.
DAYS ?= 30

## Everything, as CI runs it, with the date sweep (before handing in). ARGS="..." adds
## pytest options (a folder, -k, -x ...).
test: $(FULL_STAMP)
	$(PY) -m pytest $(XDIST) --days $(DAYS) $(ARGS)

## The quick slice, while working: all but the slow, browser, Ray and packaging tests.
test-fast: $(FULL_STAMP)
	$(PY) -m pytest $(XDIST) -m "not slow and not browser and not cluster and not packaging" $(ARGS)

## Benchmarks: prints the figures and writes bench.json. QUICK=1 for the fast figures only.
bench: $(FULL_STAMP)
	$(PY) benchmarks/bench.py $(if $(QUICK),--quick,)

bench-quick: $(FULL_STAMP)
	$(PY) benchmarks/bench.py --quick

## ruff, and mypy strict on the package.
lint: $(FULL_STAMP)
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis bench.json
