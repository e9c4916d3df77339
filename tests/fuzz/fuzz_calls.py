"""A fuzz campaign over kiln's public API: every public function of kiln,
kiln.linalg, kiln.fft and kiln.random and every public ndarray method,
called with arguments drawn from a pool of wrong and awkward values (wrong
types, bad dtypes and dtype strings, negative and huge shapes, out-of-range
axes and indices, negative-stride and 0-d and empty arrays, NaN/inf,
mismatched and aliased out=, keyword typos).

Calls run in a child process, a batch at a time, so a crash ends the child
and not the campaign: the parent sees which call was running, records it,
and starts a new child at the next call. A call that runs past its time is a
hang. Every other outcome is a return or a Python exception, sorted into
the exception types NumPy raises for bad input ("clean") and the rest.

    python tests/fuzz/fuzz_calls.py [--calls N] [--seed S] [--device cpu|cuda] [--json PATH]

The outcome classes are printed; exit status 1 when there was a crash, a
hang or an exception of an unexpected type.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

# Exceptions that are a clean refusal of bad input (NumPy raises these).
CLEAN = ("TypeError", "ValueError", "IndexError", "AxisError", "KeyError", "NotImplementedError", "OverflowError",
         "MemoryError", "OutOfMemoryError", "ZeroDivisionError", "LinAlgError", "CompileError", "BufferError",
         "ComplexWarning", "DTypePromotionError", "UnsupportedError")
CALL_SECONDS = 20  # past this, a call is a hang


def _parameters(fn):
    """(required positional names, optional names) of `fn`, or None when
    Python cannot tell (then 1 or 2 positional arguments are tried)."""
    import inspect

    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    required, optional = [], []
    for p in sig.parameters.values():
        if p.name == "self" or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.default is p.empty and p.kind != p.KEYWORD_ONLY:
            required.append(p.name)
        else:
            optional.append(p.name)
    return required, optional


def targets():
    """(qualified name, parameters) for every public callable under test."""
    import inspect

    import kiln

    out = []
    for module_name, module in (("kiln", kiln), ("kiln.linalg", kiln.linalg), ("kiln.fft", kiln.fft),
                                ("kiln.random", kiln.random)):
        for name in sorted(dir(module)):
            obj = getattr(module, name)
            if name.startswith("_") or inspect.ismodule(obj) or inspect.isclass(obj) or not callable(obj):
                continue
            if any(word in name for word in ("save", "load", "tofile", "dump")):
                continue  # they write and read files
            if name in ("show_config", "clear_cache", "fuse", "vectorize", "allow_synchronize", "seterr",
                        "get_include", "get_cmake_dir", "get_library_dir"):
                continue  # they print, empty the shared cache, or only wrap functions
            out.append((f"{module_name}.{name}", _parameters(obj)))
    no_gpu = not kiln.cuda.is_available()
    for name in sorted(dir(kiln.ndarray)):
        if name in ("tofile", "dump", "dumps"):
            continue
        if name == "get_ipc_handle" and no_gpu:
            continue  # exports GPU memory to other processes: CUDAError by design where there is no GPU
        method = getattr(kiln.ndarray, name, None)
        if not name.startswith("_") and callable(method):
            out.append((f"ndarray.{name}", _parameters(method)))
    return out


def value_pool(device):
    """The argument values: (label, make) pairs; `make` builds a fresh value."""
    import numpy as np

    import kiln

    def arr(shape, dtype="float64", fill=None):
        def make():
            a = kiln.arange(int(np.prod(shape)), device=device).reshape(shape).astype(dtype)
            return a if fill is None else kiln.full(shape, fill, dtype=dtype, device=device)
        return make

    pool = [
        ("None", lambda: None), ("True", lambda: True), ("0", lambda: 0), ("-1", lambda: -1), ("3", lambda: 3),
        ("99", lambda: 99), ("2**63", lambda: 2 ** 63), ("-2**62", lambda: -2 ** 62), ("1.5", lambda: 1.5),
        ("nan", lambda: float("nan")), ("inf", lambda: float("inf")), ("1j", lambda: 1j),
        ("'float32'", lambda: "float32"), ("'notadtype'", lambda: "notadtype"), ("'C'", lambda: "C"),
        ("''", lambda: ""), ("object()", lambda: object()), ("[]", lambda: []), ("[1, 2, 3]", lambda: [1, 2, 3]),
        ("ragged", lambda: [[1, 2], [3]]), ("()", lambda: ()), ("(2, 3)", lambda: (2, 3)), ("(-1,)", lambda: (-1,)),
        ("(2**62, 2**62)", lambda: (2 ** 62, 2 ** 62)), ("(-3, 4)", lambda: (-3, 4)), ("(0, 99)", lambda: (0, 99)),
        ("kiln.float32", lambda: kiln.float32), ("np.dtype('c16')", lambda: np.dtype("complex128")),
        ("np.dtype('O')", lambda: np.dtype("O")), ("np.array(3)", lambda: np.arange(3.0)),
        ("lambda", lambda: (lambda *a, **k: 0)),
        ("0-d", arr(())), ("empty", arr((0,))), ("empty 2-d", arr((0, 3))), ("vector", arr((5,))),
        ("matrix", arr((3, 3))), ("2x3 int8", arr((2, 3), "int8")), ("bool", arr((4,), "bool")),
        ("complex", arr((4,), "complex64")), ("float16", arr((4,), "float16")), ("uint64", arr((3,), "uint64")),
        ("nan array", arr((4,), "float32", float("nan"))), ("inf array", arr((3,), "float64", float("inf"))),
        ("reversed", lambda: kiln.arange(6.0, device=device)[::-1]),
        ("strided", lambda: kiln.arange(24.0, device=device).reshape(4, 6)[::2, ::-3]),
        ("transposed", lambda: kiln.arange(12, device=device).reshape(3, 4).T),
        ("4-d", arr((2, 1, 3, 2))),
    ]
    return pool


ARRAYS = ("0-d", "empty", "empty 2-d", "vector", "matrix", "2x3 int8", "bool", "complex", "float16", "uint64",
          "nan array", "inf array", "reversed", "strided", "transposed", "4-d")


def draw_call(rng, targets_list, pool):
    """One call: (target, [arg labels], {keyword: label}). The function's
    own parameters are filled (half the values arrays, half anything), now
    and then one too few or too many, with some of its keywords and, now and
    then, a misspelt one; `self` of a method is an array."""
    target, params = rng.choice(targets_list)
    labels = [label for label, _ in pool]

    def value():
        return rng.choice(ARRAYS) if rng.random() < 0.5 else rng.choice(labels)

    required, optional = params if params is not None else ([], ["x", "y"])
    count = len(required) if params is not None else rng.choice((1, 2))
    count = max(0, count + (rng.choice((-1, 1)) if rng.random() < 0.1 else 0))
    args = [rng.choice(ARRAYS)] if target.startswith("ndarray.") else []
    args += [value() for _ in range(count)]
    keywords = {}
    for key in optional:
        if rng.random() < 0.25:
            keywords[key] = "aliased out" if key == "out" and rng.random() < 0.3 else value()
    if rng.random() < 0.05:
        keywords[rng.choice(("axsi", "dtpye", "kepdims"))] = value()
    return target, args, keywords


def child(device, seed, start, count):
    """Runs calls start .. start+count-1 of the campaign `seed`, printing
    'run i' before and 'done i outcome detail' after each."""
    import resource
    import warnings

    if device == "cpu":  # a huge allocation fails at once instead of swapping
        resource.setrlimit(resource.RLIMIT_AS, (16 << 30, 16 << 30))
    import kiln

    warnings.simplefilter("ignore")
    kiln_default = kiln.Device(device)
    pool = value_pool(kiln_default.type if kiln_default.type == "cpu" else "cuda")
    makers = dict(pool)
    rng = random.Random(seed)
    targets_list = targets()
    calls = [draw_call(rng, targets_list, pool) for _ in range(start + count)]
    for i in range(start, start + count):
        target, args, keywords = calls[i]
        print(f"run {i}", flush=True)
        try:
            owner, name = target.rsplit(".", 1)
            values = [makers[label]() for label in args]
            kw = {}
            for key, label in keywords.items():
                kw[key] = values[0] if label == "aliased out" and values else makers.get(label, lambda: None)()
            if owner == "ndarray":
                fn = getattr(values.pop(0), name)
            else:
                module = kiln
                for part in owner.split(".")[1:]:
                    module = getattr(module, part)
                fn = getattr(module, name)
            result = fn(*values, **kw)
            if isinstance(result, kiln.ndarray):
                kiln.asnumpy(result)  # a pending result runs here
            outcome, detail = "return", ""
        except BaseException as e:  # noqa: BLE001 -- every outcome is recorded
            kind = type(e).__name__
            outcome = "clean" if kind in CLEAN or isinstance(e, (TypeError, ValueError, IndexError)) else "other"
            if outcome == "other" and kind == numpy_error(target, args, keywords, makers):
                outcome = "clean"  # the error NumPy raises for the same call
            detail = f"{kind}: {str(e).splitlines()[0][:160] if str(e) else ''}"
        print(f"done {i} {outcome} {detail}", flush=True)


def numpy_error(target, args, keywords, makers):
    """The name of the exception NumPy raises for the same call (kiln arrays
    as NumPy arrays), or None when it raises none or has no such function."""
    import numpy as np

    import kiln

    def host(v):
        return kiln.asnumpy(v) if isinstance(v, kiln.ndarray) else v

    owner, name = target.rsplit(".", 1)
    try:
        values = [host(makers[label]()) for label in args]
        kw = {k: (values[0] if v == "aliased out" and values else host(makers.get(v, lambda: None)()))
              for k, v in keywords.items()}
        if owner == "ndarray":
            fn = getattr(values.pop(0), name, None)
        else:
            module = np
            for part in owner.split(".")[1:]:
                module = getattr(module, part, None)
            fn = getattr(module, name, None)
        if fn is None:
            return None
    except BaseException:  # noqa: BLE001
        return None
    try:
        fn(*values, **kw)
    except BaseException as e:  # noqa: BLE001
        return type(e).__name__
    return None


def describe(call):
    target, args, keywords = call
    return f"{target}({', '.join(args + [f'{k}={v}' for k, v in keywords.items()])})"


def campaign(calls, seed, device, batch=400):
    """Runs the campaign; returns {outcome: count} and the notable calls."""
    import select

    rng = random.Random(seed)
    targets_list = targets()
    pool = value_pool("cpu")
    plan = [draw_call(rng, targets_list, pool) for _ in range(calls)]
    counts = {"return": 0, "clean": 0, "other": 0, "crash": 0, "hang": 0}
    notable = []
    scratch = tempfile.mkdtemp(prefix="kiln-fuzz-")  # the children's working directory
    i = 0
    env = dict(os.environ, PYTHONFAULTHANDLER="0")
    while i < calls:
        n = min(batch, calls - i)
        proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--child", device, str(seed), str(i), str(n)],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
                                cwd=scratch)
        running, last_line = None, time.time()
        while True:
            ready, _, _ = select.select([proc.stdout], [], [], 1.0)
            if ready:
                line = proc.stdout.readline()
                if not line:
                    break
                last_line = time.time()
                word, index, *rest = line.rstrip("\n").split(" ", 3)
                index = int(index)
                if word == "run":
                    running = index
                else:
                    outcome = rest[0]
                    counts[outcome] += 1
                    if outcome == "other":
                        notable.append(("other", describe(plan[index]), rest[1] if len(rest) > 1 else ""))
                    running = None
                    i = index + 1
            elif running is not None and time.time() - last_line > CALL_SECONDS:
                proc.kill()
                counts["hang"] += 1
                notable.append(("hang", describe(plan[running]), ""))
                i = running + 1
                break
        proc.wait()
        if proc.returncode not in (0, -9) and running is not None:
            counts["crash"] += 1
            notable.append(("crash", describe(plan[running]), f"exit status {proc.returncode}"))
            i = running + 1
        elif proc.returncode != 0 and running is None and i < calls and proc.returncode != -9:
            raise RuntimeError(f"the fuzz child failed between calls (exit status {proc.returncode})")
    return counts, notable


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        device, seed, start, count = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        child(device, seed, start, count)
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--json", help="write the counts and notable calls here")
    args = parser.parse_args()
    start = time.time()
    counts, notable = campaign(args.calls, args.seed, args.device)
    print(f"{args.calls} calls on {args.device} (seed {args.seed}) in {time.time() - start:.0f} s: " +
          ", ".join(f"{k} {v}" for k, v in counts.items()))
    for kind, call, detail in notable[:60]:
        print(f"  {kind:6s} {call}  {detail}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"calls": args.calls, "seed": args.seed, "device": args.device, "counts": counts,
                       "notable": notable}, f, indent=1)
    return 1 if counts["crash"] or counts["hang"] or counts["other"] else 0


if __name__ == "__main__":
    sys.exit(main())
