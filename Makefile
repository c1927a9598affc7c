# Two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck unit install bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Always reinstall: a strict editable install only links the files that existed.
install: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[all,dev]" --config-settings editable_mode=strict

demo: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e . --config-settings editable_mode=strict
	$(BIN)/python examples/demo.py

lint:
	$(BIN)/ruff check .

typecheck:
	$(BIN)/mypy -p ruleweave
	$(BIN)/mypy

unit:
	$(BIN)/pytest

test: install lint typecheck unit

bench: install
	for b in benchmarks/bench_*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info
