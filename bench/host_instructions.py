"""Counts the host instructions one small op costs on kiln's CUDA path, on a
machine with or without a GPU: kiln runs on a CUDA driver that runs nothing
(bench/null_driver/null_cuda.c, built here with the CUDA toolkit's cuda.h),
under callgrind. A launch's time on a GPU host is the driver's own cost plus
these instructions; the driver's part is not counted, so a change to kiln's
part shows here without a GPU's noise.

Each case runs N1 and N2 times in fresh processes; the difference divided by
N2 - N1 is its cost a call (Python's loop included).

    python bench/host_instructions.py            # prints the table
    python bench/host_instructions.py --save     # and writes bench/results/host-instructions.json
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from run import ROOT, machine

N1, N2 = 20000, 60000

CASES = {
    "eager a + 1.0": "with kiln.fusion.disabled():\n    for _ in range(N): a + 1.0",
    "eager a + b": "with kiln.fusion.disabled():\n    for _ in range(N): a + b",
    "auto-fused a + 1.0 (runs when dropped)": "for _ in range(N): a + 1.0",
    "auto-fused a + b (runs when dropped)": "for _ in range(N): a + b",
    "auto-fused (a + 1.0, kiln.fusion.flush()), a flush after each op": "for _ in range(N): (a + 1.0, kiln.fusion.flush())",
    "empty(1000)": "for _ in range(N): kiln.empty(1000, dtype='float32', device='cuda')",
    "empty(1000), the default device": "for _ in range(N): kiln.empty(1000, dtype='float32')",
}

PROGRAM = """
import sys, kiln
assert kiln.cuda.is_available(), 'the null driver did not load'
a = kiln.ones(1000, dtype='float32', device='cuda')
b = kiln.ones(1000, dtype='float32', device='cuda')
N = 2000
{body}
N = int(sys.argv[1])
{body}
"""


def cuda_include():
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root and os.path.exists(os.path.join(root, "include", "cuda.h")):
            return os.path.join(root, "include")
    sys.exit("host_instructions: cuda.h not found (set CUDA_HOME to the CUDA toolkit)")


def build_null_driver(directory):
    source = os.path.join(ROOT, "bench", "null_driver", "null_cuda.c")
    target = os.path.join(directory, "libcuda.so.1")
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-I", cuda_include(), source, "-o", target], check=True)
    return directory


def instructions(body, calls, driver_dir):
    """Instructions callgrind counts for the program with N = calls."""
    env = dict(os.environ, LD_LIBRARY_PATH=driver_dir + os.pathsep + os.environ.get("LD_LIBRARY_PATH", ""),
               PYTHONHASHSEED="0", KILN_DEVICE="cuda")
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c",
                          PROGRAM.format(body=body), str(calls)], env=env, capture_output=True, text=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if run.returncode != 0 or not found:
        sys.exit(f"host_instructions: the program failed under callgrind:\n{run.stderr[-2000:]}")
    return int(found.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save", action="store_true", help="write bench/results/host-instructions.json")
    options = parser.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("host_instructions: valgrind is not installed")
    rows = {}
    with tempfile.TemporaryDirectory(prefix="kiln-null-driver-") as directory:
        driver_dir = build_null_driver(directory)
        for name, body in CASES.items():
            per_call = (instructions(body, N2, driver_dir) - instructions(body, N1, driver_dir)) / (N2 - N1)
            rows[name] = round(per_call)
            print(f"{name:45s} {rows[name]:7d} instructions a call", flush=True)
    if options.save:
        path = os.path.join(ROOT, "bench", "results", "host-instructions.json")
        with open(path, "w") as f:
            json.dump({"machine": machine(), "instructions_per_call": rows}, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
