# Two entry points: `make demo` and `make test`. Both create .venv themselves.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test lint test-python test-vscode e2e-tools vsix dist bench docs clean

$(STAMP): pyproject.toml hatch_build.py server/inputmend/grammar/_native.c
	$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
	  { echo "inputmend needs Python >= 3.11 (set PYTHON=...)"; exit 2; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dask,docs]'
	touch $(STAMP)

demo: $(STAMP)
	@echo "== inputmend check examples/order.json   (exit status 1: invalid)"
	@$(BIN)/inputmend check examples/order.json || test $$? -eq 1
	@echo
	@echo "== inputmend explain examples/order.json   (failure-inducing part, ddmax)"
	@$(BIN)/inputmend explain examples/order.json
	@echo
	@echo "== inputmend repair examples/order.json --top 3   (ranked repairs, file untouched)"
	@$(BIN)/inputmend repair examples/order.json --top 3
	@echo
	@echo "inputmend is installed in $(VENV): run it as $(BIN)/inputmend, or activate the"
	@echo "environment first (. $(BIN)/activate) to have inputmend on PATH."
	@echo "Editors: the server's interpreter is $(abspath $(BIN)/python)"
	@echo "(VS Code: setting inputmend.server.pythonPath; Neovim: start nvim with the environment active)."

lint: $(STAMP)
	$(BIN)/ruff check server tests bench client-vscode/scripts client-vscode/bundled/tool
	$(BIN)/mypy

# The whole suite: lint, the VS Code extension's tests (which also package the
# vsix), then the Python tests: algorithms, oracles, CLI, language server, and
# end to end in Neovim, Emacs and a real VS Code when their tools can be had.
test: lint e2e-tools test-vscode test-python

test-python: $(STAMP)
	$(BIN)/python -m pytest -q

# Tools of the end-to-end tests, installed when missing and possible (root with
# apt and npm, as in CI); otherwise those tests are skipped and say why. Neovim;
# Emacs with eglot (built in from Emacs 29, Debian's elpa-eglot before); for
# VS Code: code-server, chromium and playwright-core (cached by version in
# ~/.cache/inputmend-e2e, see tests/e2e/vscode/install-tools.sh).
HAS_EGLOT := emacs --batch --eval '(kill-emacs (if (locate-library "eglot") 0 1))' >/dev/null 2>&1
e2e-tools:
	@command -v nvim >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing neovim for the end-to-end test"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq neovim) \
	      >/dev/null 2>&1 || echo "could not install neovim: its end-to-end test will be skipped"; \
	  else echo "neovim not found (and cannot install it): its end-to-end test will be skipped"; fi; }
	@$(HAS_EGLOT) || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing emacs and eglot for the end-to-end test"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq emacs-nox && \
	      { $(HAS_EGLOT) || \
	        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq elpa-eglot; }) \
	      >/dev/null 2>&1 || echo "could not install emacs and eglot: their end-to-end test will be skipped"; \
	  else echo "emacs with eglot not found (and cannot install it): its end-to-end test will be skipped"; fi; }
	@bash tests/e2e/vscode/install-tools.sh

test-vscode: $(STAMP)
	@if command -v npm >/dev/null 2>&1; then \
	  npm --prefix client-vscode ci --no-audit --no-fund --loglevel=error && \
	  INPUTMEND_PYTHON=$(abspath $(BIN)/python) npm --prefix client-vscode test && \
	  $(BUNDLE_ENV) npm --prefix client-vscode run --silent package; \
	else echo "Node.js/npm not found: skipping the VS Code extension tests"; fi

# The extension with the language server inside (client-vscode/bundled/libs,
# installed by client-vscode/scripts/bundle.py with pip): `make vsix` builds the
# universal one (pure Python, any platform), `make vsix-linux-x64` (or another
# VS Code target: linux-arm64, darwin-arm64, win32-x64, ...) one that adds that
# platform's compiled dependencies, for Python 3.11 to 3.14.
BUNDLE_ENV := INPUTMEND_BUNDLE_PYTHON=$(abspath $(BIN)/python)

vsix: $(STAMP)
	npm --prefix client-vscode ci --no-audit --no-fund --loglevel=error
	$(BUNDLE_ENV) npm --prefix client-vscode run package

vsix-%: $(STAMP)
	npm --prefix client-vscode ci --no-audit --no-fund --loglevel=error
	$(BUNDLE_ENV) INPUTMEND_TARGET=$* npm --prefix client-vscode run package-target

# The sdist and the wheel (built from the sdist, with the bundled grammars
# and, when a C compiler is found, the compiled scan loop) in dist/.
dist: $(STAMP)
	rm -rf dist
	$(BIN)/python -m build --outdir dist .

# Runs the benchmarks and writes their tables, with the machine's description,
# into bench/README.md (bench/run_all.py --only NAME,... reruns some of them).
bench: $(STAMP)
	$(BIN)/python bench/run_all.py

# The documentation site (docs/, mkdocs.yml) into site/, offline; --strict makes
# a broken link or a page left out of the nav an error.
docs: $(STAMP)
	@$(BIN)/python -c 'import mkdocs' 2>/dev/null || $(BIN)/python -m pip install --quiet -e '.[docs]'
	$(BIN)/python -m mkdocs build --strict --site-dir site

clean:
	rm -rf $(VENV) build dist site .mypy_cache .ruff_cache .pytest_cache
	rm -rf client-vscode/node_modules client-vscode/out client-vscode/out-test client-vscode/*.vsix
	rm -rf client-vscode/bundled/libs
	rm -rf tests/e2e/artifacts
