# Two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test e2e lint typecheck unit install redis-server chromium bench docs fuzz clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Always reinstall: a strict editable install only links the files that existed.
install: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[all,dev]" --config-settings editable_mode=strict

# -qq: errors only (a strict editable install always warns that it is one).
demo: $(BIN)/python
	$(BIN)/python -m pip install -qq -e . --config-settings editable_mode=strict
	$(BIN)/python examples/demo.py

lint:
	$(BIN)/ruff check .

typecheck:
	$(BIN)/mypy -p ruleweave
	$(BIN)/mypy

unit:
	$(BIN)/pytest

# The store tests run a real redis-server; install it only when missing (CI runs as root).
redis-server:
	command -v redis-server >/dev/null || test -x /usr/sbin/redis-server || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y redis-server)

# The map's page is tested in a real headless browser: Debian's chromium, installed only when missing.
chromium:
	command -v chromium >/dev/null || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium)

test: install redis-server chromium lint typecheck unit

# The real CLI agents from the npm registry (Codex, Gemini CLI, Qwen Code, Cline, OpenCode) against local
# mock model APIs; each is installed once into ~/.cache/ruleweave-e2e (tests/e2e/npm_agents.py).
e2e: install
	$(BIN)/pytest -m e2e tests/e2e

bench: install redis-server
	for b in benchmarks/bench_*.py; do $(BIN)/python $$b || exit 1; done

# The generated parts of docs/ (options, commands, formats, package map …), rebuilt from the code;
# tests/test_docs.py fails when a committed page differs from what this writes.
docs: install
	$(BIN)/python docs/generate.py

# Coverage-guided fuzzing of the frontmatter parser with atheris; open-ended, so not part of
# `make test` (whose bounded hypothesis suite, tests/security/test_fuzz.py, runs everywhere).
FUZZ_RUNS ?= 200000
fuzz: install
	$(BIN)/python -m pip install --quiet atheris
	$(BIN)/python tests/security/fuzz_frontmatter.py -runs=$(FUZZ_RUNS) -max_len=4096

clean:
	rm -rf $(VENV) build *.egg-info
