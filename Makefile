# Two entry points: `make demo` and `make test`. Both create .venv themselves.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
	  { echo "inputmend needs Python >= 3.11 (set PYTHON=...)"; exit 2; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	@echo "== inputmend check examples/order.json"
	-@$(BIN)/inputmend check examples/order.json
	@echo
	@echo "== inputmend explain examples/order.json   (ddmax diagnosis)"
	@$(BIN)/inputmend explain examples/order.json
	@echo
	@echo "== inputmend repair examples/order.json --top 3   (ranked repairs, file untouched)"
	@$(BIN)/inputmend repair examples/order.json --top 3

lint: $(STAMP)
	$(BIN)/ruff check server tests bench
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) build dist .mypy_cache .ruff_cache .pytest_cache
