# Headroom: `make run` and `make test` set up everything a fresh machine needs.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
QT_LIBS := libgl1 libegl1 libfontconfig1 libglib2.0-0 libxkbcommon0 libdbus-1-3 poppler-utils

.PHONY: run test lint bench sysdeps clean package

# Debian libraries Qt needs even offscreen; installed only when missing.
sysdeps:
	@missing=""; for p in $(QT_LIBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing system libraries:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

$(STAMP): requirements/runtime.txt requirements/dev.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --disable-pip-version-check -r requirements/dev.txt
	$(BIN)/pip install -q --disable-pip-version-check --no-deps -e .
	touch $(STAMP)

run: sysdeps $(STAMP)
	$(BIN)/headroom $(FILE)

lint: $(STAMP)
	$(BIN)/ruff check app models tests
	$(BIN)/mypy

test: sysdeps $(STAMP) lint
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -p no:cacheprovider

bench: sysdeps $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m tests.benchmarks.bench --out build/bench.json

# PyInstaller one-folder bundle in dist/headroom, then its --self-test offscreen (slow; not in `test`).
package: sysdeps $(STAMP)
	$(BIN)/pip install -q --disable-pip-version-check -r requirements/package.txt
	packaging/build.sh $(BIN)

clean:
	rm -rf $(VENV) build dist .mypy_cache .ruff_cache .pytest_cache .hypothesis
