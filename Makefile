# Quick start: `make run` starts the web app, `make test` runs the whole suite.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run play test lint typecheck unit bench clean

# The compiled modules (setup.py) are rebuilt when their sources change.
COMPILED := setup.py src/kartentisch/tricks.py src/kartentisch/search/_maxn.c \
	src/kartentisch/search/_dokosolve.c \
	$(addprefix src/kartentisch/games/doppelkopf/,actions.py announcements.py armut.py \
	deal.py declarations.py play.py scoring.py scoring_base.py scoring_ddv.py \
	scoring_house.py trumps.py)

$(STAMP): pyproject.toml $(COMPILED)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/kartentisch serve

play: $(STAMP)
	$(BIN)/kartentisch play slobberhannes

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks setup.py conftest.py
	$(BIN)/ruff format --check src tests benchmarks setup.py conftest.py

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
