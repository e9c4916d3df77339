"""Times users' C++ extensions: kiln.cpp_extension.load_inline's first build
and cached load (fresh processes, empty cache) and the cost of calling an
extension function with one array argument, beside PyTorch's
torch.utils.cpp_extension where PyTorch is installed.

Writes bench/results/extension-<device>.json and the table between the
``extension-<device>`` markers in docs/benchmarks.md. The rows are host work
(compilers and Python), so the device only names the machine.

    python bench/extension.py --device cuda|cpu
"""
import functools
import statistics
import sys
import time

import numpy as np

import kiln
from fusion import add_row
from kernels import fresh_process_seconds, run_and_record

KILN_SOURCE = "int64_t count(const kiln::Array& a) { return a.size(); }"
TORCH_SOURCE = "#include <torch/extension.h>\nint64_t count(const at::Tensor& a) { return a.numel(); }"

# One build in a fresh process; prints the seconds load_inline took.
LOAD = r"""
import os, sys, time
lib, source = sys.argv[1], sys.argv[2]
os.environ["TORCH_EXTENSIONS_DIR"] = sys.argv[3]  # PyTorch's build cache, empty like kiln's
if lib == "kiln":
    from kiln.cpp_extension import load_inline
else:
    from torch.utils.cpp_extension import load_inline
start = time.perf_counter()
load_inline("bench_count", source, functions=["count"])
print(time.perf_counter() - start)
"""


def load_seconds(lib, source, warm):
    return fresh_process_seconds(lambda cache: [sys.executable, "-c", LOAD, lib, source, cache], warm, lib)


def per_call(fn, calls=20000):
    """Median seconds of one call over batches of `calls`."""
    samples = []
    for _ in range(7):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        samples.append((time.perf_counter() - start) / calls)
    return statistics.median(samples[1:])


def rows_for(device):
    rows = []
    row = functools.partial(add_row, rows)
    versions = {}
    torch = None
    try:
        import torch

        versions["torch"] = torch.__version__
    except ImportError:
        pass
    first = {"kiln": load_seconds("kiln", KILN_SOURCE, False)}
    cached = {"kiln": load_seconds("kiln", KILN_SOURCE, True)}
    if torch is not None:
        first["torch"] = load_seconds("torch", TORCH_SOURCE, False)
        cached["torch"] = load_seconds("torch", TORCH_SOURCE, True)
    row("load_inline of a one-function extension: first build (fresh process, empty cache)", "<= 20 s", first)
    row("load_inline, built before (fresh process)", "<= 0.2 s", cached)

    from kiln.cpp_extension import load_inline

    ext = load_inline("bench_count", KILN_SOURCE, functions=["count"])
    baseline = load_inline("bench_baseline", "int64_t nothing(int64_t n) { return n; }", functions=["nothing"])
    x = kiln.arange(10.0, device=device)
    calls = {"kiln": per_call(lambda: ext.count(x)), "kiln (int argument, no array)": per_call(lambda: baseline.nothing(1))}
    if torch is not None:
        from torch.utils.cpp_extension import load_inline as torch_load_inline

        tx = torch.arange(10.0, device=device)
        text = torch_load_inline("bench_count_torch", TORCH_SOURCE, functions=["count"])  # another name: one module each
        calls["torch"] = per_call(lambda: text.count(tx))
    row("a call with one array argument (CPU overhead per call)", "<= 1.5 us", calls)
    assert ext.count(np.zeros(3)) == 3
    return rows, versions


def gpu_rows():
    rows, versions = rows_for("cuda")
    return rows, kiln.cuda.Device(0).name, versions


def cpu_rows():
    rows, versions = rows_for("cpu")
    return rows, "cpu", versions


if __name__ == "__main__":
    run_and_record(__doc__.splitlines()[0], "extension", gpu_rows, cpu_rows)
