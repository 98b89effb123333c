# uro developer targets. Python work runs in .venv (see README).
PY ?= .venv/bin/python
TARGET ?= bmv2

.PHONY: venv run test bench ci

venv:
	python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]'

run:
	$(PY) -m controller.cli run

test:
	$(PY) -m pytest -q -rs

# fast engine vs Alg. 1 reference, 108x6 and 1024x32 table builds (prints figures)
bench:
	$(PY) -m controller.cli bench

ci:
	bash .ci/run
