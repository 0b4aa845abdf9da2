# One entry point: `make serve` runs cognimem, `make test` runs every check.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# pytest-xdist processes for `make test`: three keep two cores busy while tests wait on
# servers and subprocesses (chosen, not measured against 2 or auto); `make test TEST_WORKERS=0`
# runs in one process
TEST_WORKERS ?= 3

.PHONY: install serve test lint typecheck unit bench clean services

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml Makefile
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "cognimem needs Python >= 3.11 (set PYTHON=python3.11)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[server,postgres,redis,mcp,bge,dev,langgraph,langchain,openai-agents,pydantic-ai,llamaindex]'
	touch $@

serve: install
	$(BIN)/cognimem serve

lint: install
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: install
	$(BIN)/mypy

unit: install
	$(BIN)/pytest tests/unit -q

# services: PostgreSQL 15 + pgvector and Redis binaries for the tests, and Chromium with
# its chromedriver for the dashboard's browser tests (root installs them; elsewhere the
# tests that need them skip with the reason)
services:
	bash scripts/provision-services.sh
	bash scripts/provision-browser.sh

# Every worker imports the whole suite and many tests start cognimem subprocesses: let
# them reuse compiled bytecode (and pytest's rewritten test modules) even where the shell
# sets PYTHONDONTWRITEBYTECODE, or each process compiles them all again
test: lint typecheck services
	cd sdk/typescript && npm ci && npm run build
	cd sdk/typescript && COGNIMEM_BIN=$(abspath $(BIN))/cognimem npm test
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -q -n $(TEST_WORKERS) --dist worksteal \
		--cov --cov-report=term:skip-covered --durations=10

bench: install
	$(BIN)/python benchmarks/locomo_dev.py
	$(BIN)/python benchmarks/ingest_throughput.py
	$(BIN)/python benchmarks/read_latency.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .coverage
