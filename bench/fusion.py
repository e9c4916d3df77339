"""Times automatic fusion: eager elementwise expressions in kiln with fusion
off and on, ``kiln.fuse``, beside CuPy (eager, ``cupy.fuse``), PyTorch (eager,
``torch.compile``) on the GPU, and beside NumPy (and PyTorch's CPU eager
ops, where PyTorch is installed) on the CPU.

Writes bench/results/fusion-<device>.json and the table between the
``fusion-<device>`` markers in docs/benchmarks.md.

    python bench/fusion.py --device cuda|cpu
    KILN_DEVICE=cpu python bench/fusion.py --device cpu --section fusion-gpu-host-cpu   # a GPU machine's host
"""
import contextlib
import functools
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

import kiln
from kernels import fresh_process_seconds, run_and_record
from run import _fmt, median_seconds

CHAIN_OPS = 10


def expression(xp, a):
    return xp.sin(a) * 2 + xp.sqrt(xp.abs(a))


def sum_of_squares(xp, a, b, c):
    return ((a * b + c) ** 2).sum()


def row_sums(xp, a, b, c):
    """One sum per row of a square matrix: a fold over the last axis."""
    return (a * b + c).sum(axis=1)


def read_once(xp, a, b, c):
    """Each input read once and nothing else: the floor of the sums of an
    expression of them, as this device and library read memory."""
    return a.sum() + b.sum() + c.sum()


def variance(xp, a, b, c):
    """NumPy's var (PyTorch's takes correction=0 for the same value)."""
    e = a * b + c
    return e.var(correction=0) if xp.__name__ == "torch" else e.var()


def first_maximum(xp, a, b, c):
    return (a * b + c).argmax()


def square(xp, arrays):
    """The flat inputs as square matrices."""
    side = int(round(arrays[0].shape[0] ** 0.5))
    return [x.reshape(side, side) for x in arrays]


def chain(xp, a):
    """Ten elementwise ops."""
    t = a * 1.5
    t = xp.abs(t) - a
    t = t * t / 3.0
    t = xp.sqrt(t + 1.0)
    return xp.exp(-t) + a


def kiln_modes():
    """kiln with fusion off, automatic fusion, and kiln.fuse."""
    fused = kiln.fuse(expression)
    return {
        "kiln eager": (lambda f, *a: f(kiln, *a), {"enabled": False}),
        "kiln auto-fused": (lambda f, *a: f(kiln, *a), {"enabled": True}),
        "kiln.fuse": (lambda f, *a: (fused if f is expression else kiln.fuse(f))(kiln, *a), {"enabled": True}),
    }


def host_inputs(n):
    """Three standard normal float32 arrays of n, and one of 1000."""
    rng = np.random.default_rng(0)
    return [rng.standard_normal(n).astype(np.float32) for _ in range(3)], rng.standard_normal(1000).astype(np.float32)


def add_row(rows, case, target, timings, nbytes=0):
    """Appends a result row (libraries without a time left out) and prints it."""
    rows.append({"case": case, "target": target, "bytes": nbytes,
                 "seconds": {k: v for k, v in timings.items() if v is not None}})
    print(f"{case:60s} " + "  ".join(f"{k} {_fmt(v)}" for k, v in rows[-1]["seconds"].items()), flush=True)


def warm_up(call, arrays, small):
    """Each timed graph once with its kernel compiled first: the rows time
    the steady state (the first sight's cost has a row of its own). Only
    wait_for_compile differs from the timed rows' settings: with the CPU's
    cpu_min_size at 0 here, var's 1-element mean was a pending graph inlined
    into its second pass, a kernel the timed rows (mean run at once) never
    use, and theirs compiled while they were timed."""
    with kiln.fusion.configured(wait_for_compile=True):
        # Each result runs as it is dropped (a pending result dropped unused
        # still runs, as eager code would have), inside the block.
        call(expression, arrays[0]), sum_of_squares(kiln, *arrays), row_sums(kiln, *square(kiln, arrays))
        variance(kiln, *arrays), first_maximum(kiln, *arrays), chain(kiln, small)


def timed(fn, sync, per_call=False, calls=100):
    """Median seconds of fn() with the device waited for: one call a sample,
    or (per_call) `calls` queued calls then one wait, divided. Prints how the
    recorded graphs ran meanwhile."""
    before = kiln.fusion.stats()
    seconds = _timed(fn, sync, per_call, calls)
    after = kiln.fusion.stats()
    print("    graphs run fused / op by op: "
          f"{after['fused_launches'] - before['fused_launches']} / {after['unfused_runs'] - before['unfused_runs']}"
          f"; kernels that failed to build: {after['kernels_failed']} {kiln.fusion.last_failure()}", flush=True)
    return seconds


def queued_call_seconds(fn, sync, calls):
    """One sample: `calls` queued calls of fn, then one wait, divided."""
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    sync()
    return (time.perf_counter() - start) / calls


def interleaved_per_call(cases, rounds=60, calls=100):
    """{name: median seconds a call} for cases {name: (fn, sync, fusion
    settings or None)}: each round takes one sample of `calls` queued calls
    then one wait from every case in turn, so that the host's speed, which
    drifts on the GPU machines by tens of percent over seconds, weighs on
    every library alike (one library's samples taken in a block landed in
    whatever phase the host was in: the same build's small op read 4.9 and
    5.6 us in two runs a minute apart)."""
    samples = {name: [] for name in cases}
    for round_ in range(rounds + 2):
        for name, (fn, sync, settings) in cases.items():
            with kiln.fusion.configured(**settings) if settings is not None else contextlib.nullcontext():
                fn()
                sync()
                seconds = queued_call_seconds(fn, sync, calls)
                if round_ >= 2:
                    samples[name].append(seconds)
    return {name: statistics.median(v) for name, v in samples.items()}


def _timed(fn, sync, per_call, calls):
    if not per_call:
        return median_seconds(lambda: (fn(), sync()))
    fn()
    sync()
    samples = [queued_call_seconds(fn, sync, calls) for _ in range(12)]
    return statistics.median(samples[2:])


# A fresh process, empty cache: the seconds from recording a new expression to
# its result, its kernel compiled first (kiln.fuse's first call). Eager ops
# are warmed up before the timing, so only the fused kernel is built in it.
FIRST_FUSED = r"""
import sys, time
import numpy as np
import kiln
device = sys.argv[1]
a = kiln.asarray(np.linspace(-1, 1, 4096, dtype=np.float32), device=device)
sync = kiln.cuda.synchronize if device == "cuda" else (lambda: None)
with kiln.fusion.disabled():
    kiln.asnumpy(kiln.sin(a) * 2 + kiln.sqrt(kiln.abs(a)))
sync()
with kiln.fusion.configured(wait_for_compile=True, cpu_min_size=0):
    start = time.perf_counter()
    r = kiln.sin(a) * 2 + kiln.sqrt(kiln.abs(a))
    kiln.fusion.flush()
    sync()
    elapsed = time.perf_counter() - start
assert kiln.fusion.stats()["kernels_compiled"] == 1
print(elapsed)
"""


def per_call_rows():
    """The per-call GPU rows ({"chain": {case: seconds}, "op": ...}), every
    library and mode timed in turn (interleaved_per_call)."""
    ks = kiln.asarray(np.random.default_rng(0).standard_normal(1000).astype(np.float32), device="cuda")
    chains, ops = {}, {}
    for name, (_, settings) in kiln_modes().items():
        if name == "kiln.fuse":
            continue
        with kiln.fusion.configured(wait_for_compile=True):  # the chain's kernel built before it is timed
            chain(kiln, ks)  # runs as it is dropped
        # The same call as CuPy's and PyTorch's below: a result dropped
        # pending runs as it dies, so a flush() after each call only added
        # Python work to kiln's rows (850 host instructions a call).
        chains[name] = (lambda: chain(kiln, ks), kiln.cuda.synchronize, settings)
        ops[name] = (lambda: ks + 1.0, kiln.cuda.synchronize, settings)
    try:
        import cupy as cp

        cs = cp.asarray(kiln.asnumpy(ks))
        sync = cp.cuda.Device().synchronize
        chains["cupy eager"] = (lambda: chain(cp, cs), sync, None)
        ops["cupy eager"] = (lambda: cs + 1.0, sync, None)
        # The floor under every library's op: the driver's launch of an empty
        # kernel, through CuPy's binding (as little Python around it as any).
        noop = cp.RawKernel(r'extern "C" __global__ void noop() {}', "noop").kernel.ptr
        ops["cuLaunchKernel alone"] = (lambda: cp.cuda.driver.launchKernel(noop, 1, 1, 1, 32, 1, 1, 0, 0, 0, 0),
                                       sync, None)
    except ImportError:
        pass
    try:
        import torch

        if torch.cuda.is_available():
            ts = torch.from_numpy(kiln.asnumpy(ks)).cuda()
            chains["torch eager"] = (lambda: chain(torch, ts), torch.cuda.synchronize, None)
            ops["torch eager"] = (lambda: ts + 1.0, torch.cuda.synchronize, None)
            try:
                compiled_chain = torch.compile(lambda a: chain(torch, a))
                compiled_chain(ts)
                chains["torch.compile"] = (lambda: compiled_chain(ts), torch.cuda.synchronize, None)
            except Exception as e:  # no Triton, or another inductor failure: the row says n/a
                print(f"  torch.compile: {type(e).__name__}", file=sys.stderr)
    except ImportError:
        pass
    return {"chain": interleaved_per_call(chains), "op": interleaved_per_call(ops)}


def per_call_in_fresh_process():
    """per_call_rows() in a process of its own, so that the large rows before
    them (three 64M arrays held by each library, torch.compile's workers)
    weigh on no library's small op. On one H100 the bench's process read
    kiln's a + 1.0 at 5.9 us where a fresh process just before and after it
    read 4.5 (PyTorch 12.1 and CuPy 19.4 in the bench's process); on another
    H100 a fresh process read 6.0 (CuPy 18.7): hosts differ more than that,
    so the effect is not settled, but every library starts the same way."""
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--per-call-rows"], capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def first_fused(device):
    return fresh_process_seconds(lambda cache: [sys.executable, "-c", FIRST_FUSED, device], False, "kiln")


def gpu_rows():
    n = 64 << 20
    hosts, small = host_inputs(n)
    rows = []
    row = functools.partial(add_row, rows)

    libs, versions = {}, {}
    try:
        import cupy

        libs["cupy"] = cupy
        versions["cupy"] = cupy.__version__
    except ImportError:
        pass
    try:
        import torch

        if torch.cuda.is_available():
            libs["torch"] = torch
            versions["torch"] = torch.__version__
    except ImportError:
        pass

    expr_t, sum_t, rows_t, var_t, arg_t, read_t = {}, {}, {}, {}, {}, {}
    ka = [kiln.asarray(h, device="cuda") for h in hosts]
    ks = kiln.asarray(small, device="cuda")
    for name, (call, settings) in kiln_modes().items():
        warm_up(call, ka, ks)
        with kiln.fusion.configured(**settings):
            expr_t[name] = timed(lambda: call(expression, ka[0]), kiln.cuda.synchronize)
            if name != "kiln.fuse":
                sum_t[name] = timed(lambda: float(sum_of_squares(kiln, *ka)), lambda: None)
                read_t[name] = timed(lambda: float(read_once(kiln, *ka)), lambda: None)
                var_t[name] = timed(lambda: float(variance(kiln, *ka)), lambda: None)
                arg_t[name] = timed(lambda: int(first_maximum(kiln, *ka)), lambda: None)
                rows_t[name] = timed(lambda: row_sums(kiln, *square(kiln, ka)), kiln.cuda.synchronize)
    if "cupy" in libs:
        cp = libs["cupy"]
        ca = [cp.asarray(h) for h in hosts]
        sync = cp.cuda.Device().synchronize
        fused = cp.fuse(kernel_name="sin_sqrt")(lambda a: cp.sin(a) * 2 + cp.sqrt(cp.abs(a)))
        expr_t["cupy eager"] = timed(lambda: expression(cp, ca[0]), sync)
        expr_t["cupy.fuse"] = timed(lambda: fused(ca[0]), sync)
        sum_t["cupy eager"] = timed(lambda: float(sum_of_squares(cp, *ca)), lambda: None)
        read_t["cupy eager"] = timed(lambda: float(read_once(cp, *ca)), lambda: None)
        var_t["cupy eager"] = timed(lambda: float(variance(cp, *ca)), lambda: None)
        arg_t["cupy eager"] = timed(lambda: int(first_maximum(cp, *ca)), lambda: None)
        rows_t["cupy eager"] = timed(lambda: row_sums(cp, *square(cp, ca)), sync)
        del ca
    if "torch" in libs:
        torch = libs["torch"]
        ta = [torch.from_numpy(h).cuda() for h in hosts]
        sync = torch.cuda.synchronize
        expr_t["torch eager"] = timed(lambda: expression(torch, ta[0]), sync)
        sum_t["torch eager"] = timed(lambda: float(sum_of_squares(torch, *ta)), lambda: None)
        read_t["torch eager"] = timed(lambda: float(read_once(torch, *ta)), lambda: None)
        var_t["torch eager"] = timed(lambda: float(variance(torch, *ta)), lambda: None)
        arg_t["torch eager"] = timed(lambda: int(first_maximum(torch, *ta)), lambda: None)
        rows_t["torch eager"] = timed(lambda: row_sums(torch, *square(torch, ta)), sync)
        try:
            compiled = torch.compile(lambda a: expression(torch, a))
            compiled_sum = torch.compile(lambda a, b, c: sum_of_squares(torch, a, b, c))
            compiled_rows = torch.compile(lambda a, b, c: row_sums(torch, a, b, c))
            compiled_var = torch.compile(lambda a, b, c: variance(torch, a, b, c))
            compiled_arg = torch.compile(lambda a, b, c: first_maximum(torch, a, b, c))
            expr_t["torch.compile"] = timed(lambda: compiled(ta[0]), sync)
            sum_t["torch.compile"] = timed(lambda: float(compiled_sum(*ta)), lambda: None)
            var_t["torch.compile"] = timed(lambda: float(compiled_var(*ta)), lambda: None)
            arg_t["torch.compile"] = timed(lambda: int(compiled_arg(*ta)), lambda: None)
            rows_t["torch.compile"] = timed(lambda: compiled_rows(*square(torch, ta)), sync)
        except Exception as e:  # no Triton, or another inductor failure: the row says n/a
            print(f"  torch.compile: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
    per_call = per_call_in_fresh_process()
    chain_t, op_t = per_call["chain"], per_call["op"]
    row(f"sin(a)*2 + sqrt(abs(a)), {n >> 20}M float32", "auto <= 0.20 ms, fuse <= 0.18 ms", expr_t, 2 * n * 4)
    row(f"((a*b + c)**2).sum(), 3 x {n >> 20}M float32", "within 10% of one read", sum_t, 3 * n * 4)
    row(f"one read: a.sum() + b.sum() + c.sum(), 3 x {n >> 20}M float32", "the row above's floor", read_t,
        3 * n * 4)
    row("(a*b + c).sum(axis=1), 3 x 8192^2 float32", "reported", rows_t, 3 * n * 4)
    row(f"(a*b + c).var(), 3 x {n >> 20}M float32", "reported", var_t, 3 * n * 4)
    row(f"(a*b + c).argmax(), 3 x {n >> 20}M float32", "reported", arg_t, 3 * n * 4)
    row(f"{CHAIN_OPS}-op chain on 1000 float32, per chain", "<= 30 us", chain_t)
    row("a + 1.0 on 1000 float32, per call", "<= 5 us", op_t)
    row("a new fused expression: record to result, empty cache (fresh process)", "<= 50 ms",
        {"kiln auto-fused": first_fused("cuda")})
    return rows, kiln.cuda.Device(0).name, versions


def cpu_rows():
    n = 16 << 20
    hosts, small = host_inputs(n)
    rows = []
    row = functools.partial(add_row, rows)

    # kiln.array copies: memory NumPy can write is read at once, not fused.
    ka = [kiln.array(h, device="cpu") for h in hosts]
    ks = kiln.array(small, device="cpu")
    expr_t, sum_t, rows_t, chain_t, var_t, arg_t = {}, {}, {}, {}, {}, {}
    nothing = lambda: None  # noqa: E731
    for name, (call, settings) in kiln_modes().items():
        warm_up(call, ka, ks)
        with kiln.fusion.configured(**settings):
            expr_t[name] = timed(lambda: call(expression, ka[0]), nothing)
            if name != "kiln.fuse":
                sum_t[name] = timed(lambda: float(sum_of_squares(kiln, *ka)), nothing)
                var_t[name] = timed(lambda: float(variance(kiln, *ka)), nothing)
                arg_t[name] = timed(lambda: int(first_maximum(kiln, *ka)), nothing)
                rows_t[name] = timed(lambda: row_sums(kiln, *square(kiln, ka)), nothing)
                chain_t[name] = timed(lambda: chain(kiln, ks), nothing, per_call=True)

    def host_library(name, xp, arrays, small_array):
        """The rows of a library over its CPU arrays (NumPy's, PyTorch's tensors)."""
        expr_t[name] = timed(lambda: expression(xp, arrays[0]), nothing)
        sum_t[name] = timed(lambda: float(sum_of_squares(xp, *arrays)), nothing)
        var_t[name] = timed(lambda: float(variance(xp, *arrays)), nothing)
        arg_t[name] = timed(lambda: int(first_maximum(xp, *arrays)), nothing)
        rows_t[name] = timed(lambda: row_sums(xp, *square(xp, arrays)), nothing)
        chain_t[name] = timed(lambda: chain(xp, small_array), nothing, per_call=True)

    host_library("numpy", np, hosts, small)
    versions = {"numpy": np.__version__}
    try:
        import torch

        versions["torch"] = torch.__version__
        host_library("torch eager", torch, [torch.from_numpy(h) for h in hosts], torch.from_numpy(small))
    except ImportError:
        pass
    row(f"sin(a)*2 + sqrt(abs(a)), {n >> 20}M float32", "auto <= 9 ms (2 cores); >= 3x torch eager (16 cores)",
        expr_t, 2 * n * 4)
    row(f"((a*b + c)**2).sum(), 3 x {n >> 20}M float32", "reported", sum_t, 3 * n * 4)
    row("(a*b + c).sum(axis=1), 3 x 4096^2 float32", "reported", rows_t, 3 * n * 4)
    row(f"(a*b + c).var(), 3 x {n >> 20}M float32", "reported", var_t, 3 * n * 4)
    row(f"(a*b + c).argmax(), 3 x {n >> 20}M float32", "reported", arg_t, 3 * n * 4)
    row(f"{CHAIN_OPS}-op chain on 1000 float32 (below cpu_min_size: not fused)", "reported", chain_t)
    row("a new fused expression: record to result, empty cache (fresh process)", "<= 1.5 s",
        {"kiln auto-fused": first_fused("cpu")})
    return rows, "cpu", versions


if __name__ == "__main__":
    if sys.argv[1:] == ["--per-call-rows"]:  # per_call_in_fresh_process's child
        print(json.dumps(per_call_rows()))
    else:
        run_and_record(__doc__.splitlines()[0], "fusion", gpu_rows, cpu_rows)
