# uro developer targets. Python work runs in .venv (see README).
PY ?= $(shell [ -x .venv/bin/python ] && echo .venv/bin/python || echo python3)
TARGET ?= bmv2
PROFILE ?= tiny
# bmv2 builds go to build/, tofino2 builds to tofino/build/<profile>/ (both gitignored)
BUILD ?= $(if $(filter tofino2,$(TARGET)),tofino/build/$(notdir $(basename $(PROFILE))),build)

.PHONY: venv run test bench ci build p4src

venv:
	python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]'

EMU_CONFIG ?= examples/emu-8x2.toml
EMU_FLAGS ?=

# `make run`: the route compiler on the built-in example; `make run TARGET=bmv2`: the
# emulated optical DCN of EMU_CONFIG (root, p4c, bmv2; docs/emulate.md)
run:
ifeq ($(origin TARGET),command line)
	$(PY) -m controller.cli emulate up --config $(EMU_CONFIG) $(EMU_FLAGS)
else
	$(PY) -m controller.cli run
endif

test:
	$(PY) -m pytest -q -rs

# fast engine vs Alg. 1 reference, 108x6 and 1024x32 table builds (prints figures)
bench:
	$(PY) -m controller.cli bench

ci:
	bash .ci/run

# render the P4 programs of PROFILE for TARGET (bmv2 | tofino2) and compile them with the
# target's compiler (p4c-bm2-ss | bf-p4c) into $(BUILD)/
build:
	$(PY) -m controller.cli p4 build --target $(TARGET) --profile $(PROFILE) --out $(BUILD)

# refresh the reviewable rendered P4 in p4src/ (a unit test checks it is current)
p4src:
	for p in tiny r108x6 r1024x32; do $(PY) -m controller.cli p4 render --profile $$p --out p4src || exit 1; \
	  $(PY) -m controller.cli p4 render --target tofino2 --profile $$p --out p4src || exit 1; done
