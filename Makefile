# `make test` and `make demo` do every set-up step themselves on a fresh
# machine: a virtual environment, the build dependencies, an incremental build.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BUILD_DIR := build/py
DEPS_STAMP := $(VENV)/.kiln-deps
SOURCES := $(shell find CMakeLists.txt pyproject.toml include src python -type f -not -name '*.so' -not -path '*/__pycache__/*' 2>/dev/null)
BUILD_STAMP := $(BUILD_DIR)/.kiln-installed

.PHONY: all build test test-cpp test-python demo bench gpu-check clean

all: build

$(DEPS_STAMP):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet "scikit-build-core>=0.10" "nanobind>=2.4" "numpy>=1.26" "pytest>=7" "hypothesis>=6"
	touch $@

$(BUILD_STAMP): $(DEPS_STAMP) $(SOURCES)
	$(PY) -m pip install --quiet --no-build-isolation --no-deps \
	  -C build-dir=$(BUILD_DIR) -C cmake.define.KILN_BUILD_TESTS=ON .
	touch $@

build: $(BUILD_STAMP)

test-cpp: build
	ctest --test-dir $(BUILD_DIR) --output-on-failure

# Run from tests/ so that `import kiln` finds the installed package, not python/kiln.
test-python: build
	cd tests && ../$(PY) -m pytest -q python

test: test-cpp test-python

# The main job: the N-Ways RDF pipeline on a generated liquid (every way kiln
# offers, on the GPU if there is one), then a tour of the faces. matplotlib
# draws RDF.png; without it (no network) the demo runs without the plot.
demo: build
	$(PY) -m pip install --quiet matplotlib 2>/dev/null || echo "(matplotlib not installed: no plot)"
	$(VENV)/bin/kiln-rdf --out rdf-output
	$(PY) examples/tour.py

bench: build
	$(PY) bench/run.py

# On a GPU machine with the packages preinstalled and no network (the device
# tool): build with the system Python, run the whole suite on cpu and cuda,
# the CUDA tests under compute-sanitizer's memcheck, and the GPU benchmark.
SANITIZER := $(shell command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
gpu-check:
	python3 -m pip install --quiet --no-build-isolation --no-deps -C build-dir=build/gpu .
	cd tests && python3 -m pytest -q -p no:cacheprovider python
	cd tests && $(SANITIZER) --tool memcheck --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider \
	  python/test_elementwise.py python/test_reductions.py python/test_cuda_runtime.py python/test_raw_kernel.py \
	  python/test_elementwise_kernel.py python/test_reduction_kernel.py python/test_pycuda_face.py python/test_jit.py \
	  python/test_rdf_pipeline.py \
	  -k "cuda and not out_of_memory and not missing_global"
	python3 bench/run.py --device cuda --section cuda --no-doc
	python3 bench/kernels.py --device cuda --no-doc
	python3 bench/jit.py --device cuda --no-doc
	python3 bench/rdf.py --device cuda --no-doc

clean:
	rm -rf build $(VENV)
