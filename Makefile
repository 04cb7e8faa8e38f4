# Headroom: `make run` and `make test` set up everything a fresh machine needs.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
QT_LIBS := libgl1 libegl1 libfontconfig1 libglib2.0-0 libxkbcommon0 libdbus-1-3 poppler-utils

# and, for a window on an X11 display (Qt's xcb plugin), these as well
XCB_LIBS := libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 \
            libxcb-shape0 libxcb-xkb1 libxkbcommon-x11-0

.PHONY: run test lint bench sysdeps guideps _apt clean package

# Debian libraries Qt needs even offscreen; installed only when missing.
sysdeps:
	@$(MAKE) --no-print-directory _apt PKGS="$(QT_LIBS)"

# Libraries a window needs on an X11 desktop (only when there is a display).
guideps:
	@if [ -n "$$DISPLAY" ] && [ "$$QT_QPA_PLATFORM" != offscreen ]; then \
	  $(MAKE) --no-print-directory _apt PKGS="$(XCB_LIBS)"; fi

_apt:
	@missing=""; for p in $(PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
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

run: sysdeps guideps $(STAMP)
	$(BIN)/headroom $(FILE)

lint: $(STAMP)
	$(BIN)/ruff check app models tests
	$(BIN)/mypy

test: sysdeps $(STAMP) lint
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -p no:cacheprovider

# Bytecode compiled first: a shell with PYTHONDONTWRITEBYTECODE set would time every open
# with the sources compiled afresh, the small design's most (its ratio would look better).
bench: sysdeps $(STAMP)
	$(BIN)/python -m compileall -q app models tests > /dev/null
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m tests.benchmarks.bench --out build/bench.json

# PyInstaller one-folder bundle in dist/headroom, then its --self-test offscreen (slow; not in `test`).
package: sysdeps $(STAMP)
	$(BIN)/pip install -q --disable-pip-version-check -r requirements/package.txt
	packaging/build.sh $(BIN)

clean:
	rm -rf $(VENV) build dist .mypy_cache .ruff_cache .pytest_cache .hypothesis
