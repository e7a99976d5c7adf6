# The two commands that set up everything on a fresh machine: `make play`, `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: play terminal test bench bench-quick lint clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,cluster,server,postgres,research]'
	touch $(STAMP)

## The game server with the browser client, on an embedded SQLite file (./mummy.db);
## it prints the address to open. ARGS="--port 8080 --db postgresql://..."
play: $(STAMP)
	$(VENV)/bin/mummy serve $(ARGS)

## Terminal play of The Mummy's Tomb. ARGS="--seed 7 --players 2"
terminal: $(STAMP)
	$(VENV)/bin/mummy play tomb $(ARGS)

## The whole test suite.
test: $(STAMP)
	$(PY) -m pytest

## Benchmarks: prints the figures and writes bench.json. QUICK=1 for the fast figures only.
bench: $(STAMP)
	$(PY) benchmarks/bench.py $(if $(QUICK),--quick,)

bench-quick: $(STAMP)
	$(PY) benchmarks/bench.py --quick

## ruff, and mypy strict on the package.
lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis bench.json
