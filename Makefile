# Set-up is part of every target: a fresh clone needs only python3 (>= 3.10) and make.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test lint bench bench-quick bench-install clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev,notebook,meaning]"
	touch $(STAMP)

# The bundled example has a contradicted claim, so `sourced check` exits 1 (the gate failed):
# that is the demonstration, not an error. Any other non-zero exit fails the target.
run: install
	$(BIN)/sourced check examples/answer.txt examples/source.txt || [ $$? -eq 1 ]

test: install
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

# ruff over the package, tests and benchmarks, with the rules of [tool.ruff] in pyproject.toml:
# the linter, then the formatter's check (`ruff format .` writes what it would change).
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# The peer (sourced-evidence) ships a console script also named `sourced`: after installing it,
# reinstall this package's script and check that `sourced` is still ours.
bench-install: install
	$(BIN)/python -m pip install --quiet -e ".[bench]"
	$(BIN)/python -m pip install --quiet --no-deps --force-reinstall -e .
	grep -q "from sourced_nlp\." $(BIN)/sourced || { echo "error: the sourced command is not sourced-nlp's"; exit 1; }
	$(BIN)/sourced --version

bench: bench-install
	$(BIN)/python bench/ragtruth.py --split test --json bench/out/ragtruth-test.json
	$(BIN)/python bench/claims.py --json bench/out/claims.json
	$(BIN)/python bench/speed.py --json bench/out/speed.json
	$(BIN)/python bench/rule_precision.py --json bench/out/rule-precision.json
	$(BIN)/python bench/records.py
	$(BIN)/python bench/records.py --cases tests/cases/records-b.jsonl
	$(BIN)/python bench/records.py --cases tests/cases/records-c.jsonl

bench-quick: bench-install
	$(BIN)/python bench/ragtruth.py --split test --quick --json bench/out/ragtruth-test-quick.json
	$(BIN)/python bench/claims.py --quick --json bench/out/claims-quick.json
	$(BIN)/python bench/speed.py --quick --json bench/out/speed-quick.json

clean:
	rm -rf $(VENV) build *.egg-info
