# `make test` and `make demo` do every set-up step themselves on a fresh
# machine: a virtual environment, the build dependencies, an incremental build.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BUILD_DIR := build/py
DEPS_STAMP := $(VENV)/.kiln-deps
SOURCES := $(shell find CMakeLists.txt pyproject.toml include src python tests/cpp -type f -not -name '*.so' -not -path '*/__pycache__/*' 2>/dev/null)
BUILD_STAMP := $(BUILD_DIR)/.kiln-installed

.PHONY: all build test test-cpp test-python test-fusion-modes demo docs bench gpu-check fuzz conformance-pycuda conformance-cupy conformance-numba conformance-numba-cpu conformance-programs conformance-downstream conformance clean

all: build

# SciPy: the reference distributions the random tests check kiln's samplers against.
# depyf: cuda.jit translates functions without a source file (exec, python -c) from their bytecode.
# pybind11: the tests build an extension with kiln's pybind11 caster (nanobind, the build's own binder,
# is what kiln.cpp_extension uses).
# ml_dtypes: NumPy's bfloat16 dtype, which kernels using numba.cuda.bf16 are typed with.
BUILD_DEPS := "scikit-build-core>=0.10" "nanobind>=2.4" "numpy>=1.26" "pytest>=7" "hypothesis>=6" "scipy>=1.11" \
  "depyf>=0.18" "pybind11>=2.10" "dask[array]>=2024.1" "distributed>=2024.1" "mpi4py>=4" "openmpi>=5" "ml_dtypes>=0.4"
# Where $(PYTHON) has the build dependencies already (a machine without
# network, such as the GPU machine), the venv sees its packages through a .pth
# file instead of downloading them ($(PYTHON) may itself be a venv, whose
# packages --system-site-packages would not reach).
$(DEPS_STAMP):
	$(PYTHON) -m venv $(VENV)
	if $(PYTHON) -c "import scikit_build_core, nanobind, numpy, pytest, hypothesis" 2>/dev/null; then \
	  $(PYTHON) -c "import sysconfig; print(sysconfig.get_paths()['purelib']); print(sysconfig.get_paths()['platlib'])" \
	    > "$$($(PY) -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")/kiln-build-deps.pth"; \
	else \
	  $(PY) -m pip install --quiet --upgrade pip && \
	  $(PY) -m pip install --quiet $(BUILD_DEPS); \
	fi
	touch $@

# The CPU's FFT library, FFTW, which kiln loads at run time: installed from
# the system's packages where it is missing and that is possible (root and
# apt). Without it kiln builds and runs, and its CPU FFT tests are skipped.
SYSTEM_DEPS_STAMP := $(VENV)/.kiln-system-deps
FFTW_PACKAGES := libfftw3-double3 libfftw3-single3
$(SYSTEM_DEPS_STAMP): $(DEPS_STAMP)
	@if ! (ldconfig -p | grep -q 'libfftw3\.so\.3' && ldconfig -p | grep -q 'libfftw3f\.so\.3'); then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get install -y -q $(FFTW_PACKAGES) >/dev/null 2>&1 || \
	    (apt-get update -q >/dev/null 2>&1 && apt-get install -y -q $(FFTW_PACKAGES) >/dev/null 2>&1) || \
	    echo "(FFTW could not be installed: the CPU FFT tests will be skipped)"; \
	  else \
	    echo "(no FFTW, and no apt-get as root to install it: the CPU FFT tests will be skipped)"; \
	  fi; \
	fi
	touch $@

$(BUILD_STAMP): $(SYSTEM_DEPS_STAMP) $(SOURCES)
	$(PY) -m pip install --quiet --no-build-isolation --no-deps \
	  -C build-dir=$(BUILD_DIR) -C cmake.define.KILN_BUILD_TESTS=ON .
	touch $@

build: $(BUILD_STAMP)

test-cpp: build
	ctest --test-dir $(BUILD_DIR) --output-on-failure

# Run from tests/ so that `import kiln` finds the installed package, not python/kiln.
# The suite runs with automatic fusion on (the default: large CPU results
# fused) and again with it off (KILN_FUSION=0): the same results either way.
test-python: build
	cd tests && ../$(PY) -m pytest -q python
	cd tests && KILN_FUSION=0 ../$(PY) -m pytest -q -p no:cacheprovider python

test: test-cpp test-python

# The user guide and the API reference (autodoc over the installed package)
# as HTML in docs/_build/html, with Sphinx and MyST for the Markdown, as
# NumPy, CuPy, Numba and PyCUDA build theirs; any warning fails the build.
DOCS_DEPS := "sphinx>=7" "myst-parser>=2"
docs: build
	$(PY) -c "import sphinx, myst_parser" 2>/dev/null || $(PY) -m pip install --quiet $(DOCS_DEPS)
	$(PY) -m sphinx -W --keep-going -E -q -b html docs docs/_build/html
	@echo "docs: docs/_build/html/index.html"

# The suite with every elementwise result recorded and run as a fused kernel
# compiled before its first run (a few minutes on a cold kernel cache).
test-fusion-modes: build
	cd tests && KILN_FUSION=wait KILN_FUSION_CPU_MIN_SIZE=0 ../$(PY) -m pytest -q -p no:cacheprovider python

# The main job: the N-Ways RDF pipeline on a generated liquid (every way kiln
# offers, on the GPU if there is one), then a tour of the faces. matplotlib
# draws RDF.png; without it (no network) the demo runs without the plot.
PLOTTING := $(PY) -c "import matplotlib" 2>/dev/null || \
	  $(PY) -m pip install --quiet --retries 1 --timeout 10 matplotlib 2>/dev/null || \
	  echo "(matplotlib could not be installed: no plots)"

demo: build
	$(PLOTTING)
	$(VENV)/bin/kiln-rdf --out rdf-output
	$(PY) examples/tour.py

# Every suite on every device here, beside every anchor library installed;
# writes bench/results/*.json, docs/benchmarks.md and docs/benchmarks.png.
bench: build
	$(PLOTTING)
	$(PY) bench/all.py

# On a GPU machine with the packages preinstalled and no network (the device
# tool): build with the system Python, run the whole suite on cpu and cuda
# (with automatic fusion on, then off),
# the CUDA tests under compute-sanitizer's memcheck and racecheck in parallel
# shards (tests/sanitizer/run.py; not the Numba test: Numba's driver binding
# probes entry points the driver lacks, which memcheck reports), cuSPARSE's
# SpMV alone under racecheck (the hazards racecheck reports inside it, with
# no kiln code: docs/reliability.md), and every
# benchmark
# (bench/results/*.json; `bench/all.py --from-results DIR` writes the docs).
gpu-check:
	python3 -m pip install --quiet --no-build-isolation --no-deps -C build-dir=build/gpu .
	cd tests && python3 -m pytest -q -p no:cacheprovider python
	cd tests && KILN_FUSION=0 python3 -m pytest -q -p no:cacheprovider python
	cd tests && KILN_THREAD_TEST_SECONDS=30 python3 -m pytest -q -p no:cacheprovider python/test_threads.py
	cd tests && KILN_FUSION=wait python3 -m pytest -q -p no:cacheprovider python/test_elementwise.py \
	  python/test_ufuncs.py python/test_fusion.py python/test_numpy_functions.py
	cd tests && python3 sanitizer/run.py --tool memcheck --shards 14 --seconds 1800
	cd tests && python3 sanitizer/run.py --tool racecheck --shards 14 --seconds 3600
	nvcc -O2 -arch=native tests/sanitizer/cusparse_spmv_racecheck.cu -lcusparse -o build/cusparse_spmv_racecheck
	for algorithm in csr1 csr2 coo1 coo2; do compute-sanitizer --tool racecheck --racecheck-report hazard \
	  build/cusparse_spmv_racecheck $$algorithm | tail -1; done
	python3 bench/all.py --no-doc

# The fuzz campaign (tests/fuzz/fuzz_calls.py): 10,000 calls with wrong and
# awkward arguments per seed on the CPU, and on the GPU where one works; each
# batch runs in a child process, so a crash is counted, not fatal. CI runs a
# fixed-seed slice (tests/python/test_fuzz.py).
fuzz: build
	cd tests && ../$(PY) fuzz/fuzz_calls.py --calls 10000 --seed 2026 --device cpu
	cd tests && ../$(PY) fuzz/fuzz_calls.py --calls 10000 --seed 7 --device cpu
	if $(PY) -c "import kiln, sys; sys.exit(not kiln.cuda.is_available())"; then \
	  cd tests && ../$(PY) fuzz/fuzz_calls.py --calls 10000 --seed 2026 --device cuda; fi

# PyCUDA's own tests, examples and tutorial against kiln through a name-only
# shim (tests/conformance/pycuda/run.py), on the CPU and, where one works, the
# GPU; compares with the recorded baselines. Fetches PyCUDA (or uses
# $PYCUDA_SRC) and the packages its suite imports.
conformance-pycuda: build
	$(PY) -m pip install --quiet pytools jinja2 cgen matplotlib
	cd tests && ../$(PY) conformance/pycuda/run.py --device cpu
	if $(PY) -c "import kiln, sys; sys.exit(not kiln.cuda.is_available())"; then \
	  cd tests && ../$(PY) conformance/pycuda/run.py --device cuda; fi

# CuPy's own tests (tests/cupy_tests, tests/cupyx_tests/scipy_tests) through
# the name-only shim (tests/conformance/cupy/run.py): CuPy's source from
# $$CUPY_SRC or a clone (it needs GitHub, which CI cannot reach), on the CPU
# and, where one works, the GPU. About 10 minutes on the 2-core CPU machine.
conformance-cupy: build
	cd tests && ../$(PY) conformance/cupy/run.py --device cpu
	if $(PY) -c "import kiln, sys; sys.exit(not kiln.cuda.is_available())"; then \
	  cd tests && ../$(PY) conformance/cupy/run.py --device cuda; fi

# Numba's own CUDA kernel tests (numba-cuda's tests/cudapy) through the
# name-only shim (tests/conformance/numba/run.py): kiln on the CPU and, where
# one works, the GPU, and Numba's own simulator (NUMBA_ENABLE_CUDASIM=1) in a
# venv of its own (.venv-numba) as the CPU baseline. numba-cuda's source from
# $$NUMBA_CUDA_SRC or a clone (GitHub, which CI cannot reach).
conformance-numba: build
	test -x .venv-numba/bin/python || { $(PYTHON) -m venv .venv-numba && \
	  .venv-numba/bin/pip install --quiet "numba-cuda[cu13]==0.30.4" filecheck cffi ml_dtypes pytest; }
	cd tests && ../$(PY) conformance/numba/run.py --simulator $(CURDIR)/.venv-numba/bin/python
	$(PY) -m pip install --quiet cffi ml_dtypes  # what some of Numba's test files import
	cd tests && ../$(PY) conformance/numba/run.py --device cpu
	if $(PY) -c "import kiln, sys; sys.exit(not kiln.cuda.is_available())"; then \
	  cd tests && ../$(PY) conformance/numba/run.py --device cuda; fi

# Numba's own CPU tests (numba/tests of Numba's wheel: the language files,
# npyufunc/, doc_examples/) through the same shim (tests/conformance/numba_cpu/
# run.py), against the baseline of real Numba on this machine. The baseline's
# own run (an hour on 2 cores) is make conformance-numba-cpu RECORD_NUMBA=1,
# in a venv of its own (.venv-numba-cpu, NumPy as kiln's).
conformance-numba-cpu: build
	test -x .venv-numba-cpu/bin/python || { $(PYTHON) -m venv .venv-numba-cpu && \
	  .venv-numba-cpu/bin/pip install --quiet numba==0.68.1 pytest scipy \
	    "numpy==$$($(PY) -c 'import numpy; print(numpy.__version__)')"; }
	if [ -n "$(RECORD_NUMBA)" ]; then cd tests && ../$(PY) conformance/numba_cpu/run.py \
	  --numba $(CURDIR)/.venv-numba-cpu/bin/python --record; fi
	cd tests && ../$(PY) conformance/numba_cpu/run.py

# Whole programs, unchanged, through the name-only shim
# (tests/conformance/programs/): the N-Ways lab's three RDF programs on a
# DCD written with MDAnalysis, each judged against a NumPy RDF, on the CPU
# and, where one works, the GPU. The lab's source from $$GPUBOOTCAMP_SRC or a
# clone (GitHub, which CI cannot reach).
conformance-programs: build
	cd tests && ../$(PY) conformance/programs/run.py --device cpu
	if $(PY) -c "import kiln, sys; sys.exit(not kiln.cuda.is_available())"; then \
	  cd tests && ../$(PY) conformance/programs/run.py --device cuda; fi

# Libraries built on CuPy, by their own CuPy tests with kiln as cupy
# (tests/conformance/downstream/): Dask's test_cupy_*.py and xarray's
# test_cupy.py from the installed packages, on the CPU and, where one works,
# the GPU. About a minute on the 2-core CPU machine.
conformance-downstream: build
	$(PY) -m pip install --quiet xarray
	cd tests && ../$(PY) conformance/downstream/run.py --device cpu
	if $(PY) -c "import kiln, sys; sys.exit(not kiln.cuda.is_available())"; then \
	  cd tests && ../$(PY) conformance/downstream/run.py --device cuda; fi

conformance: conformance-pycuda conformance-cupy conformance-numba conformance-numba-cpu conformance-programs conformance-downstream

clean:
	rm -rf build $(VENV)
