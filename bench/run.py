"""Times kiln beside NumPy (and PyTorch/CuPy where importable) on the same data.

Writes bench/results/<section>.json and the table between that section's
markers in docs/benchmarks.md. Each case reports the median of 15 timed batches
after a warm-up; timings are wall-clock, and on the GPU each timed call waits
for the device (the pipelined row queues 100 calls per wait). The GPU run
adds host<->device copies and, in fresh processes, the first call of a new
op with an empty kernel cache and the first op with a warm one.

    python bench/run.py [--quick]
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time

import numpy as np

import kiln

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "benchmarks.md")
IN_CACHE_BYTES = 1 << 20


def median_seconds(fn, min_time=0.5, repeats=15):
    """Median time of one call: calls are batched so each batch lasts ~min_time/repeats."""
    fn()
    fn()
    start = time.perf_counter()
    fn()
    once = max(time.perf_counter() - start, 1e-7)
    number = max(1, int(min_time / repeats / once))
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - start) / number)
    return statistics.median(samples)


def seconds_per_library(libs, prepare, call, min_time, repeats):
    """{library: median seconds of call(namespace, data), synchronised}, data
    = prepare(convert, namespace) for each (name, convert, namespace, sync) in
    `libs`; a library that lacks the routine is reported and left out."""
    seconds = {}
    for lib, convert, namespace, sync in libs:
        try:
            data = prepare(convert, namespace)

            def timed_call():
                call(namespace, data)
                sync()

            seconds[lib] = median_seconds(timed_call, min_time=min_time, repeats=repeats)
        except Exception as e:  # a library without this routine is reported, not fatal
            print(f"  {lib}: {type(e).__name__}: {e}")
    return seconds


def anchors(device):
    """Array libraries to compare on `device`, each as (name, asarray, namespace, synchronize)."""
    def nothing():
        pass

    if device == "cpu":
        libs = [("numpy", np.asarray, np, nothing), ("kiln", lambda a: kiln.asarray(a, device="cpu"), kiln, nothing)]
    else:
        libs = [("kiln", lambda a: kiln.asarray(a, device="cuda"), kiln, kiln.cuda.synchronize)]
        try:
            import cupy

            libs.append(("cupy", cupy.asarray, cupy, cupy.cuda.Device().synchronize))
        except ImportError:
            pass
    try:
        import torch

        if device == "cpu":
            libs.append(("torch", lambda a: torch.from_numpy(np.ascontiguousarray(a)), torch, nothing))
        elif torch.cuda.is_available():
            libs.append(("torch", lambda a: torch.from_numpy(np.ascontiguousarray(a)).cuda(), torch,
                         torch.cuda.synchronize))
    except ImportError:
        pass
    return libs


def gpu_cases():
    rng = np.random.default_rng(0)
    small = rng.random(1000, dtype=np.float32)
    n = 64 << 20
    large = rng.random(n, dtype=np.float32)
    huge = rng.random(256 << 20, dtype=np.float32)
    square = huge.reshape(16384, 16384)
    square4k = rng.random((4096, 4096), dtype=np.float32)
    half8k = rng.random((8192, 8192), dtype=np.float32).astype(np.float16)
    tiny = rng.random((64, 64), dtype=np.float32)
    wave4k = (square4k + 1j * square4k[::-1]).astype(np.complex64)
    signed = rng.standard_normal(n, dtype=np.float32)
    picks = rng.integers(0, n, 16 << 20)
    square8k = huge[: 8192 * 8192].reshape(8192, 8192)
    f32 = 4
    pipelined = 100  # calls queued per wait: the host cost of a call, not the round trip
    return [
        ("a + b, 1000 float32 (per call)", (small, small), lambda xp, a, b: a + b, 3 * 1000 * f32),
        (f"a + b, 1000 float32 (per call, {pipelined} queued per wait)", (small, small),
         lambda xp, a, b: [a + b for _ in range(pipelined)], 3 * 1000 * f32, pipelined),
        ("a + b, 64M float32", (large, large), lambda xp, a, b: a + b, 3 * n * f32),
        ("sin(a)*2 + sqrt(abs(a)), 64M float32", (large,),
         lambda xp, a: xp.sin(a) * 2 + xp.sqrt(xp.abs(a)), 2 * n * f32),
        ("copy, 64M float32", (large,), lambda xp, a: a.copy() if hasattr(a, "copy") else a.clone(), 2 * n * f32),
        ("sum, 256M float32", (huge,), lambda xp, a: xp.sum(a), huge.nbytes),
        ("sum axis 0, 16384x16384 float32", (square,), lambda xp, a: xp.sum(a, axis=0), square.nbytes),
        ("sum axis 1, 16384x16384 float32", (square,), lambda xp, a: xp.sum(a, axis=1), square.nbytes),
        ("cumulative_sum, 64M float32", (large,),
         lambda xp, a: xp.cumulative_sum(a) if hasattr(xp, "cumulative_sum") else xp.cumsum(a, 0), 2 * n * f32),
        ("standard normal, 64M float32 (Generator; torch.randn)", (), _normal_draw(n, "cuda"), n * f32),
        # torch.sort returns the positions too; the floor is one read and one write.
        ("sort, 64M float32", (large,), lambda xp, a: xp.sort(a), 2 * n * f32),
        ("argsort (stable), 64M float32", (large,), _stable_argsort, n * (f32 + 8)),
        ("fft2, 4096x4096 complex64", (wave4k,), lambda xp, a: xp.fft.fft2(a), 2 * wave4k.nbytes),
        *layout_and_selection_cases(huge, signed, picks, square8k),
        # Products are bound by arithmetic, not bandwidth: compare the times (2 n^3 flops each).
        ("matmul 4096x4096 float32 (137 GFLOP)", (square4k, square4k), lambda xp, a, b: a @ b, 3 * square4k.nbytes),
        ("matmul 8192x8192 float16 (1.1 TFLOP)", (half8k, half8k), lambda xp, a, b: a @ b, 3 * half8k.nbytes),
        ("matmul 64x64 float32 (per call)", (tiny, tiny), lambda xp, a, b: a @ b, 3 * tiny.nbytes),
        (f"matmul 64x64 float32 (per call, {pipelined} queued per wait)", (tiny, tiny),
         lambda xp, a, b: [a @ b for _ in range(pipelined)], 3 * tiny.nbytes, pipelined),
    ]


def layout_and_selection_cases(values, signed, picks, square):
    """Rows of issue 21 on either device: var/std, compaction, gather, layout
    copies, broadcasting. Floors: std reads its input once; x[x > 0] reads x
    and writes the half it keeps; a gather reads its indices and writes its
    values (the picked values are read a sector at a time, not counted); a
    transpose reads and writes the array; the broadcast sum writes its output."""
    f32 = 4
    n, m, side = values.size, signed.size, square.shape[0]
    return [
        (f"std, {n >> 20}M float32", (values,), lambda xp, a: xp.std(a), n * f32),
        (f"x[x > 0], {m >> 20}M float32 (half kept)", (signed,), lambda xp, a: a[a > 0], m * f32 * 3 // 2),
        (f"gather x[idx], {picks.size >> 20}M random int64 indices", (signed, picks),
         lambda xp, a, i: a[i], picks.size * (8 + f32)),
        (f"a.T copied to C order, {side}x{side} float32", (square,), _transposed_copy, 2 * square.nbytes),
        (f"v[:, None] + v[None, :], {side} float32", (square[0],),
         lambda xp, v: v[:, None] + v[None, :], side * side * f32),
    ]


def _transposed_copy(xp, a):
    return a.T.contiguous() if hasattr(a, "contiguous") else a.T.copy()


def _stable_argsort(xp, a):
    return xp.argsort(a, stable=True) if xp.__name__ == "torch" else xp.argsort(a, kind="stable")


def _normal_draw(n, device):
    """A call drawing n standard normal float32 values with each library's
    generator, made once per library (NumPy's and CuPy's Generator, kiln's,
    torch.randn)."""
    generators = {}

    def call(xp):
        name = xp.__name__
        if name not in generators:
            if name == "torch":
                generators[name] = lambda: xp.randn(n, device=device)
            else:
                rng = xp.random.default_rng(0)
                generators[name] = lambda: rng.standard_normal(n, dtype="float32")
        return generators[name]()

    return call


def transfer_rows(libs):
    """Host<->device copies of 256 MiB, pageable and pinned, into existing arrays."""
    n = 64 << 20
    host = np.random.default_rng(1).random(n, dtype=np.float32)
    rows = []
    for direction in ("H2D", "D2H"):
        for kind in ("pageable", "pinned"):
            row = {"case": f"{direction} 256 MiB {kind}", "bytes": host.nbytes, "unit": "GB/s", "seconds": {}}
            for lib, _, xp, sync in libs:
                copy = _transfer(lib, xp, host, direction, kind)
                if copy is None:
                    continue

                def timed():
                    copy()
                    sync()

                row["seconds"][lib] = median_seconds(timed, min_time=1.0, repeats=5)
            rows.append(row)
            print(f"{row['case']:40s} " + "  ".join(f"{lib} {host.nbytes / t / 1e9:6.1f} GB/s"
                                                   for lib, t in row["seconds"].items()))
    return rows


def _transfer(lib, xp, host, direction, kind):
    n = host.size
    if lib == "kiln":
        dev = kiln.empty(n, dtype=kiln.float32, device="cuda")
        pinned = np.asarray(kiln.cuda.alloc_pinned_memory(host.nbytes)).view(np.float32)
        to_dev, to_host = (lambda h: dev.set(h)), (lambda h: kiln.asnumpy(dev, out=h))
    elif lib == "cupy":
        import cupyx

        dev = xp.empty(n, dtype=np.float32)
        pinned = cupyx.empty_pinned(n, dtype=np.float32)
        to_dev, to_host = (lambda h: dev.set(h)), (lambda h: dev.get(out=h))
    elif lib == "torch":
        dev = xp.empty(n, dtype=xp.float32, device="cuda")
        pinned = xp.empty(n, dtype=xp.float32, pin_memory=True).numpy()
        to_dev = lambda h: dev.copy_(xp.from_numpy(h))  # noqa: E731
        to_host = lambda h: xp.from_numpy(h).copy_(dev)  # noqa: E731
    else:
        return None
    buf = host.copy() if kind == "pageable" else pinned
    buf[...] = host
    return (lambda: to_dev(buf)) if direction == "H2D" else (lambda: to_host(buf))


# Run in a fresh interpreter: the first call of an op kiln has not compiled yet
# (an empty kernel cache), or the first op of a process whose cache is warm.
FIRST_CALL_SCRIPT = """
import sys, time
import numpy as np
lib, mode = sys.argv[1], sys.argv[2]
x = np.arange(1000, dtype=np.float32)
if lib == "kiln":
    import kiln as xp
    sync = xp.cuda.synchronize
    xp.cuda.Device(0).synchronize()
    put = lambda h: xp.asarray(h, device="cuda")
elif lib == "cupy":
    import cupy as xp
    sync = xp.cuda.Device().synchronize
    xp.cuda.Device(0).synchronize()
    put = xp.asarray
else:
    import torch as xp
    sync = xp.cuda.synchronize
    xp.cuda.init()
    sync()
    put = lambda h: xp.from_numpy(h).cuda()
if mode == "compile":  # context, pool and one kernel first; then a kernel never built
    a = put(x)
    b = a + a
    sync()
    t = time.perf_counter()
    c = xp.hypot(a, b)
    sync()
else:  # the context exists; everything else is the first op's cost
    t = time.perf_counter()
    a = put(x)
    b = a + a
    sync()
print(time.perf_counter() - t)
"""


def first_call_rows(libs):
    import tempfile

    rows = []
    for case, mode in (("first call of a new op (hypot), empty kernel cache", "compile"),
                       ("first op of a fresh process, warm cache (after the context)", "warm")):
        row = {"case": case, "bytes": 0, "seconds": {}}
        for lib, _, _, _ in libs:
            samples = []
            for _ in range(3):
                with tempfile.TemporaryDirectory() as cache:
                    env = dict(os.environ, KILN_CACHE_DIR=cache, CUPY_CACHE_DIR=cache)
                    runs = 2 if mode == "warm" else 1  # the first run fills the cache
                    for _ in range(runs):
                        out = subprocess.run([sys.executable, "-c", FIRST_CALL_SCRIPT, lib, mode], env=env,
                                             capture_output=True, text=True)
                    if out.returncode != 0:
                        print(f"  {lib}: {out.stderr.strip().splitlines()[-1:]}")
                        break
                    samples.append(float(out.stdout))
            if samples:
                row["seconds"][lib] = statistics.median(samples)
        rows.append(row)
        print(f"{case:40s} " + "  ".join(f"{lib} {t * 1e3:8.2f} ms" for lib, t in row["seconds"].items()))
    return rows


def cases(n_large):
    rng = np.random.default_rng(0)
    small = rng.random(1000, dtype=np.float32)
    large = rng.random(n_large, dtype=np.float32)
    side = int(np.sqrt(n_large))
    square = large[: side * side].reshape(side, side)
    f32 = 4
    return [
        # name, inputs, call, bytes moved (for the bandwidth floor)
        ("a + b, 1000 float32", (small, small), lambda xp, a, b: a + b, 3 * 1000 * f32),
        (f"a + b, {n_large >> 20}M float32", (large, large), lambda xp, a, b: a + b, 3 * n_large * f32),
        (f"sin, {n_large >> 20}M float32", (large,), lambda xp, a: xp.sin(a), 2 * n_large * f32),
        (f"sum, {n_large >> 20}M float32", (large,), lambda xp, a: xp.sum(a), n_large * f32),
        (f"sum axis 0, {side}x{side} float32", (square,), lambda xp, a: xp.sum(a, axis=0), side * side * f32),
        (f"cumulative_sum, {n_large >> 20}M float32", (large,),
         lambda xp, a: xp.cumulative_sum(a) if hasattr(xp, "cumulative_sum") else xp.cumsum(a, 0),
         2 * n_large * f32),
        (f"standard normal, {n_large >> 20}M float32 (Generator; torch.randn)", (), _normal_draw(n_large, "cpu"),
         n_large * f32),
        (f"sort, {n_large >> 20}M float32", (large,), lambda xp, a: xp.sort(a), 2 * n_large * f32),
        (f"argsort (stable), {n_large >> 20}M float32", (large,), _stable_argsort, n_large * (f32 + 8)),
        *layout_and_selection_cases(large, large - np.float32(0.5), rng.integers(0, n_large, n_large // 4),
                                    large[: 2048 * 2048].reshape(2048, 2048)),
    ]


def copy_bandwidth(n_large):
    """Bytes per second of the fastest large copy into an existing array (NumPy's
    single-threaded copyto or kiln's multi-threaded assignment): the floor for
    bandwidth-bound ops."""
    src = np.ones(n_large, dtype=np.float32)
    dst = np.empty_like(src)
    ksrc, kdst = kiln.asarray(src, device="cpu"), kiln.empty(n_large, dtype=kiln.float32, device="cpu")

    def kiln_copy():
        kdst[...] = ksrc

    t = min(median_seconds(lambda: np.copyto(dst, src)), median_seconds(kiln_copy))
    return 2 * src.nbytes / t


def gpu_copy_bandwidth():
    """Bytes per second of a 256 MiB device-to-device copy (the physical limit for
    bandwidth-bound rows), measured with the fastest library present."""
    src = np.ones(64 << 20, dtype=np.float32)
    best = float("inf")
    for lib, convert, xp, sync in anchors("cuda"):
        if lib == "kiln":
            continue  # kiln's own copy kernel is among the rows, not the yardstick
        a = convert(src)

        def copy():
            a.copy() if hasattr(a, "copy") else a.clone()
            sync()

        best = min(best, median_seconds(copy))
    return 2 * src.nbytes / best


def import_time():
    code = "import time; t = time.perf_counter(); import kiln; print(time.perf_counter() - t)"
    runs = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                 check=True).stdout) for _ in range(5)]
    return statistics.median(runs)


def save_result(result, section):
    """bench/results/<section>.json, the record bench/all.py --from-results reads."""
    os.makedirs(os.path.join(ROOT, "bench", "results"), exist_ok=True)
    with open(os.path.join(ROOT, "bench", "results", f"{section}.json"), "w") as f:
        json.dump(result, f, indent=1)


def machine():
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1M elements instead of 16M")
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--no-doc", action="store_true", help="do not rewrite docs/benchmarks.md")
    parser.add_argument("--section", default="cpu", help="results file and docs section to write (default: cpu)")
    parser.add_argument("--from-json", metavar="PATH",
                        help="write the docs table from a saved result (e.g. one taken on another machine)")
    parser.add_argument("--only", metavar="TEXT", action="append",
                        help="run only the rows whose name contains TEXT (repeatable); with --section, a trial run")
    args = parser.parse_args()
    if args.from_json:
        with open(args.from_json) as f:
            result = json.load(f)
        write_table(result, list(result["rows"][0]["seconds"]), args.section)
        return
    n_large = (1 << 20) if args.quick else (1 << 24)
    libs = anchors(args.device)
    rows = []
    for name, inputs, call, nbytes, *per in (cases(n_large) if args.device == "cpu" else gpu_cases()):
        if args.only and not any(text in name for text in args.only):
            continue
        calls = per[0] if per else 1
        row = {"case": name, "bytes": nbytes, "seconds": {}}
        for lib, convert, xp, sync in libs:
            converted = [convert(a) for a in inputs]

            def timed_call():
                call(xp, *converted)
                sync()

            try:
                # GPU work is asynchronous: each timed call waits for the device.
                row["seconds"][lib] = median_seconds(timed_call) / calls
            except Exception as e:  # a library without this op is reported, not fatal
                print(f"  {lib}: {type(e).__name__}: {e}")
        rows.append(row)
        print(f"{name:40s} " + "  ".join(f"{lib} {t * 1e6:10.1f} us" for lib, t in row["seconds"].items()))
    if args.device == "cuda" and not args.only:
        rows += transfer_rows(libs) + first_call_rows(libs)
    bandwidth = copy_bandwidth(n_large) if args.device == "cpu" else gpu_copy_bandwidth()
    result = {
        "date": datetime.date.today().isoformat(),
        "machine": machine(),
        "device": args.device if args.device == "cpu" else kiln.cuda.Device(0).name,
        "threads": kiln._core._cpu_threads(),
        "versions": {lib: getattr(xp, "__version__", "?") for lib, _, xp, _ in libs} | {"python": platform.python_version()},
        "copy_bandwidth_GBps": bandwidth / 1e9,
        "import_kiln_seconds": import_time(),
        "rows": rows,
    }
    save_result(result, args.section)
    if not args.no_doc:
        write_table(result, [lib for lib, _, _, _ in libs], args.section)
    print(f"copy bandwidth {bandwidth / 1e9:.1f} GB/s, import kiln {result['import_kiln_seconds'] * 1e3:.0f} ms")


def write_table(result, libs, section):
    lines = [
        f"Measured {result['date']} on "
        + (f"{result['device']} (host: {result['machine']})" if result["device"] != "cpu"
           else f"{result['machine']} (kiln using {result['threads']} threads)") + "; "
        + ", ".join(f"{k} {v}" for k, v in result["versions"].items()) + ".",
        "",
        f"Copy bandwidth (the floor for bandwidth-bound rows): {result['copy_bandwidth_GBps']:.1f} GB/s. "
        f"`import kiln`: {result['import_kiln_seconds'] * 1e3:.0f} ms.",
        "",
        "| case | " + " | ".join(libs) + " | kiln speed-up | bandwidth floor |",
        "|---|" + "---:|" * (len(libs) + 2),
    ]
    for row in result["rows"]:
        s = row["seconds"]
        # Inputs that fit in cache have no bandwidth floor; per-call overhead rules there.
        floor = row["bytes"] / (result["copy_bandwidth_GBps"] * 1e9)
        if row.get("unit") == "GB/s":  # over the host bus: no device-memory floor
            cells = " | ".join(f"{row['bytes'] / s[lib] / 1e9:.1f} GB/s" if lib in s else "n/a" for lib in libs)
            floor_text = "host bus"
        else:
            cells = " | ".join(_fmt(s[lib]) if lib in s else "n/a" for lib in libs)
            floor_text = _fmt(floor) if row["bytes"] >= IN_CACHE_BYTES else "in cache" if row["bytes"] else "n/a"
        base = "numpy" if "numpy" in s else next((b for b in ("cupy", "torch") if b in s), None)
        speedup = f"{s[base] / s['kiln']:.2f}x over {base}" if base and "kiln" in s else "n/a"
        lines.append(f"| {row['case']} | {cells} | {speedup} | {floor_text} |")
    replace_doc_section(section, "\n".join(lines))


def replace_doc_section(section, table):
    """Puts `table` between the section's markers in docs/benchmarks.md."""
    begin, end = f"<!-- bench:{section}:begin -->", f"<!-- bench:{section}:end -->"
    with open(DOC) as f:
        text = f.read()
    if begin not in text:
        raise SystemExit(f"docs/benchmarks.md has no section {section!r} (markers {begin} ... {end})")
    head, rest = text.split(begin, 1)
    tail = rest.split(end, 1)[1]
    with open(DOC, "w") as f:
        f.write(f"{head}{begin}\n{table}\n{end}{tail}")


def _fmt(seconds):
    return f"{seconds * 1e6:.2f} us" if seconds < 1e-3 else f"{seconds * 1e3:.2f} ms"


if __name__ == "__main__":
    main()
