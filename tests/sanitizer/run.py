"""Runs the Python suite's CUDA tests under compute-sanitizer, in parallel shards.

Under memcheck a test runs 5 to 20 times slower, so one process cannot cover
the suite inside the GPU machine's ten-minute calls. This script collects the
test ids (CUDA parameters only: KILN_TEST_DEVICES=cuda), deals them out
round-robin to --shards processes, each `compute-sanitizer --tool TOOL python
-m pytest IDS`, and reports per shard the tests that passed, failed and were
skipped at the deadline, and the sanitizer's error count. Tests that fault a
kernel or exhaust memory on purpose are deselected by name.

    python3 tests/sanitizer/run.py --tool memcheck --shards 12 --seconds 500 --log-dir $OUT

On a machine of several GPUs, --gpus N gives each shard one of them.
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
# The tests that touch the GPU (device-parametrised ids end in "cuda"; the
# CUDA runtime, PyCUDA and interop files name it too), less the deliberate faults.
SELECT = ("(cuda or gpu or cupy or torch) and not fault and not poisoned and not out_of_memory"
          " and not missing_global and not numba_and_jax"
          # the fuzz slice times each call in a child process: the sanitizer's
          # slowdown reads as a hang there
          " and not fuzz"
          # NCCL probes its kernel images with cudaFuncGetAttributes, which the
          # sanitizer reports as API errors inside libnccl (4 on an H100, 2026-11-26)
          " and not nccl")


# NVIDIA's libraries, as their kernels' signatures name them: a report inside
# one is counted apart from reports in kiln's own kernels (by a namespace,
# prefix or parameter type of the demangled signature: cuBLAS's batched LU,
# `getrf_kernelWarp(cublasLuParams, ...)`, names its library only in its
# parameters), and --skip-library-kernels passes the same names to
# compute-sanitizer's --kernel-name-exclude (cuSOLVER's batched kernels,
# minutes a test under racecheck, run unchecked then).
LIBRARY_SUBSTRINGS = ("cusparse", "cusolver", "cublas", "cufft", "nccl")
LIBRARY_KERNEL = re.compile(rf"\b(?:{'|'.join(LIBRARY_SUBSTRINGS)})")
REPORT = re.compile(r"========= (?:Error: |Warning: |Invalid )")
KERNEL = re.compile(r" at (.+?)\+0x[0-9a-f]+")


def reports_by_owner(text):
    """(reports in kiln's kernels, reports in NVIDIA's library kernels) of a log."""
    kiln = library = 0
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not REPORT.search(line):
            continue
        # the kernel is named on the report's first line (racecheck) or the next (memcheck)
        kernel = next((m.group(1) for m in map(KERNEL.search, lines[i:i + 3]) if m), "")
        if LIBRARY_KERNEL.search(kernel):
            library += 1
        else:
            kiln += 1
    return kiln, library


def sanitizer():
    return shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"


def collect(files, keyword):
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                          "-k", keyword, *files], cwd=TESTS, capture_output=True, text=True,
                         env=dict(os.environ, KILN_TEST_DEVICES="cuda"))
    # ids are printed relative to the rootdir (the repository), the shards run in tests/
    ids = [line.removeprefix("tests/") for line in out.stdout.splitlines() if "::" in line]
    if not ids:
        sys.exit("no tests collected:\n" + out.stdout[-3000:] + out.stderr[-3000:])
    return ids


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", default="memcheck", choices=["memcheck", "racecheck", "initcheck", "synccheck"])
    ap.add_argument("--shards", type=int, default=12)
    ap.add_argument("--gpus", type=int, default=1,
                    help="spread the shards over this many GPUs (shard n sees GPU n mod GPUS only)")
    ap.add_argument("--seconds", type=float, default=500, help="no test starts after this many seconds")
    ap.add_argument("--grace", type=float, default=60,
                    help="a shard still running this long after --seconds is killed")
    ap.add_argument("--stall", type=float, default=180,
                    help="dump the Python stacks of a test running longer than this")
    ap.add_argument("--log-dir", default=".")
    ap.add_argument("--resume", metavar="LOG_DIR",
                    help="leave out the tests that passed in an earlier run's logs")
    ap.add_argument("-k", dest="keyword", default="", help="further pytest -k selection")
    ap.add_argument("--skip-library-kernels", action="store_true",
                    help="leave NVIDIA's library kernels unchecked (run at full speed): those whose mangled names "
                         "contain " + ", ".join(LIBRARY_SUBSTRINGS) + "; a check of kiln's own kernels only")
    ap.add_argument("files", nargs="*", default=["python"])
    args = ap.parse_args()

    start = time.time()
    keyword = SELECT + (f" and ({args.keyword})" if args.keyword else "")
    ids = collect(args.files, keyword)
    if args.resume:
        done = set()
        for folder, _, names in os.walk(args.resume):
            for name in names:
                if name.endswith(".log"):
                    text = open(os.path.join(folder, name), errors="replace").read()
                    done.update(re.findall(r"^(\S+::\S.*?) PASSED", text, re.M))
        ids = [i for i in ids if i not in done]
    shards = [ids[i::args.shards] for i in range(args.shards)]
    env = dict(os.environ, KILN_TEST_DEVICES="cuda", KILN_TEST_DEADLINE=str(start + args.seconds),
               KILN_TEST_STALL=str(args.stall),
               PYTHONPATH=os.pathsep.join([HERE, os.environ.get("PYTHONPATH", "")]))
    procs = []
    os.makedirs(args.log_dir, exist_ok=True)
    for n, shard in enumerate(shards):
        log = open(os.path.join(args.log_dir, f"{args.tool}-{n}.log"), "w")
        # the "regex" key of --kernel-name-exclude (compute-sanitizer's --help, CUDA 13)
        skip = ["--kernel-name-exclude", "regex=" + "|".join(LIBRARY_SUBSTRINGS)] if args.skip_library_kernels else []
        cmd = [sanitizer(), "--tool", args.tool, "--error-exitcode", "9", *skip, sys.executable, "-m", "pytest",
               "-v", "-rfEs", "-p", "no:cacheprovider", "-p", "deadline", *shard]
        own = dict(env, CUDA_VISIBLE_DEVICES=str(n % args.gpus)) if args.gpus > 1 else env
        procs.append((subprocess.Popen(cmd, cwd=TESTS, env=own, stdout=log, stderr=subprocess.STDOUT,
                                       start_new_session=True), log))
    rows, bad = [], False
    for n, (proc, log) in enumerate(procs):
        try:
            proc.wait(timeout=max(1, start + args.seconds + args.grace - time.time()))
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the sanitizer and the Python under it
            proc.wait()
        log.close()
        text = open(log.name, errors="replace").read()
        summary = next((line for line in reversed(text.splitlines()) if re.search(r" in [\d.]+s", line)), None)
        if summary is None:  # killed before pytest's summary: count the verbose lines
            summary = f"{text.count(' PASSED')} passed, {text.count(' FAILED')} failed"
        count = lambda word: sum(int(m) for m in re.findall(rf"(\d+) {word}", summary))
        errors = re.findall(r"ERROR SUMMARY: (\d+) error", text)
        hazards = re.findall(r"RACECHECK SUMMARY: (\d+) hazard", text)
        found = sum(map(int, errors + hazards)) if (errors or hazards) else None
        in_kiln, in_library = reports_by_owner(text)
        deadline_skips = sum(int(m) for m in re.findall(r"SKIPPED \[(\d+)\].*past KILN_TEST_DEADLINE", text))
        rows.append((n, len(shards[n]), count("passed"), count("failed"), deadline_skips, found, in_kiln, in_library,
                     proc.returncode))
        bad |= proc.returncode != 0 or found is None or found > 0
    print(f"{args.tool}: {len(ids)} tests in {args.shards} shards, {time.time() - start:.0f} s")
    # errors: the tool's summary count ("?" where the shard was killed before it);
    # reports: the reports in the log, by whose kernel they name
    print("shard  tests  passed  failed  past-deadline  errors  reports-kiln  reports-library  rc")
    for r in rows:
        print("{:5d} {:6d} {:7d} {:7d} {:14d} {:>7} {:13d} {:16d} {:3d}".format(
            *r[:5], "?" if r[5] is None else r[5], *r[6:]))
    total = [sum(r[i] for r in rows) for i in (1, 2, 3, 6, 7)]
    print(f"total: {total[0]} tests, {total[1]} passed, {total[2]} failed; reports in kiln's kernels {total[3]},"
          f" in NVIDIA's library kernels {total[4]}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
