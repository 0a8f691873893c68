# Quick start: `make run` starts the web app, `make test` runs the whole suite.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
RUN_STAMP := $(VENV)/.installed-run

.PHONY: run play test lint typecheck unit bench clean

# The compiled modules (setup.py) are rebuilt when their sources change.
COMPILED := setup.py src/kartentisch/tricks.py src/kartentisch/search/_maxn.c \
	src/kartentisch/search/_dokosolve.c src/kartentisch/interop/_vecslob.c \
	src/kartentisch/interop/_vecdoko.c src/kartentisch/interop/_obs.h src/kartentisch/interop/_aec.h src/kartentisch/interop/_shortway.c src/kartentisch/interop/_envstate.h \
	$(addprefix src/kartentisch/games/doppelkopf/,actions.py announcements.py armut.py \
	deal.py declarations.py play.py scoring.py scoring_base.py scoring_ddv.py \
	scoring_house.py state.py trumps.py) \
	src/kartentisch/games/slobberhannes/deal.py

# `make run` and `make play` need only the runtime dependencies; the tests the dev extra.
$(RUN_STAMP): pyproject.toml $(COMPILED)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

# The dev extra's packages on top (the project itself is not built a second time).
$(STAMP): $(RUN_STAMP)
	$(BIN)/python -c "import tomllib; print('\\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['optional-dependencies']['dev']))" > $(VENV)/dev-requirements.txt
	$(BIN)/python -m pip install --quiet -r $(VENV)/dev-requirements.txt
	touch $(STAMP)

run: $(RUN_STAMP)
	$(BIN)/kartentisch serve

play: $(RUN_STAMP)
	$(BIN)/kartentisch play slobberhannes

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples setup.py conftest.py
	$(BIN)/ruff format --check src tests benchmarks examples setup.py conftest.py

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/engine_playouts.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
