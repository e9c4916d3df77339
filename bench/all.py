"""The whole benchmark suite in one command: the ops (run.py), kernels from
strings (kernels.py), kernels in Python (jit.py) and the N-Ways RDF (rdf.py),
each for kiln and every anchor library installed (NumPy, CuPy, PyTorch,
Numba), on the CPU and, where there is one, on the GPU. Each suite runs in a
process of its own and writes bench/results/<section>.json; then the tables
of docs/benchmarks.md and the chart docs/benchmarks.png are written from
those files.

    python bench/all.py                        # run everything here, write the docs
    python bench/all.py --no-doc               # run, write only the JSON (e.g. on a GPU machine)
    python bench/all.py --from-results DIR     # the docs from JSON taken elsewhere
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys

import kiln

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "results")
CHART = os.path.join(os.path.dirname(HERE), "docs", "benchmarks.png")
SUITES = ["run.py", "kernels.py", "jit.py", "rdf.py"]


def section(suite, place):
    """The docs section (and results file) of `suite` run in `place`: "cuda",
    "gpu-host-cpu" (the CPU of a GPU machine) or "cpu" (a machine without one)."""
    return place if suite == "run.py" else f"{suite[:-3]}-{place}"


def suite_of(name):
    prefix = name.split("-", 1)[0]
    return f"{prefix}.py" if f"{prefix}.py" in SUITES else "run.py"


def run_all(write_doc):
    places = [("cuda", "cuda"), ("cpu", "gpu-host-cpu")] if kiln.cuda.is_available() else [("cpu", "cpu")]
    failed = []
    for device, place in places:
        for suite in SUITES:
            name = section(suite, place)
            print(f"== {suite} on {device} -> {name}", flush=True)
            command = [sys.executable, os.path.join(HERE, suite), "--device", device, "--section", name]
            if not write_doc:
                command.append("--no-doc")
            # The CPU runs keep kiln's default device on the CPU (a GPU is the default where there is one).
            env = dict(os.environ, KILN_DEVICE="cpu") if device == "cpu" else None
            if subprocess.run(command, cwd=HERE, env=env).returncode != 0:
                failed.append(name)
    return failed


def docs_from(directory):
    """Rewrites each section's table from the JSON files in `directory`."""
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        name = os.path.basename(path)[:-5]
        if os.path.abspath(directory) != os.path.abspath(RESULTS):
            shutil.copy(path, os.path.join(RESULTS, name + ".json"))
        subprocess.run([sys.executable, os.path.join(HERE, suite_of(name)), "--section", name, "--from-json", path],
                       cwd=HERE, check=True)


def speedups(result):
    """(case, kiln's speed-up over the fastest other library) for each row that has both."""
    out = []
    for row in result["rows"]:
        s = row["seconds"]
        kiln_time = next((t for lib, t in s.items() if lib.startswith("kiln") and "RawKernel" not in lib), None)
        others = [t for lib, t in s.items() if not lib.startswith("kiln") and "floor" not in lib]
        if kiln_time and others and row.get("unit") != "GB/s":
            out.append((row["case"], min(others) / kiln_time))
    return out


def chart(path=CHART):
    """A bar per comparable row: kiln's speed-up over the fastest other
    library in the same run (log scale; right of 1 is kiln faster)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(no chart: matplotlib is not installed)")
        return None
    panels = []
    for result_path in sorted(glob.glob(os.path.join(RESULTS, "*.json"))):
        with open(result_path) as f:
            result = json.load(f)
        bars = speedups(result)
        if bars:
            where = result["device"] if result["device"] != "cpu" else f"CPU, {result['threads']} threads"
            panels.append((f"{os.path.basename(result_path)[:-5]} ({where}, {result['date']})", bars))
    if not panels:
        print("(no chart: no results with kiln beside another library)")
        return None
    heights = [0.8 + 0.22 * len(bars) for _, bars in panels]
    values = [v for _, bars in panels for _, v in bars]
    limits = (min(0.5, min(values) / 1.5), max(2.0, max(values) * 1.5))  # one scale for every panel
    fig, axes = plt.subplots(len(panels), 1, figsize=(10, sum(heights)), gridspec_kw={"height_ratios": heights})
    for ax, (title, bars) in zip(axes if len(panels) > 1 else [axes], panels):
        labels = [case if len(case) <= 70 else case[:67] + "..." for case, _ in bars]
        speedup = [v for _, v in bars]
        # Each bar starts at 1 (as fast as the other library): right is kiln faster.
        ax.barh(range(len(bars)), [v - 1.0 for v in speedup], left=1.0,
                color=["tab:green" if v >= 1 else "tab:red" for v in speedup])
        for k, v in enumerate(speedup):
            ax.text(v * (1.05 if v >= 1 else 1 / 1.05), k, f"{v:.2f}x", va="center",
                    ha="left" if v >= 1 else "right", fontsize=6)
        ax.set_yticks(range(len(bars)), labels, fontsize=7)
        ax.invert_yaxis()
        ax.set_xscale("log")
        ax.set_xlim(*limits)
        ax.axvline(1.0, color="black", lw=0.8)
        ax.set_title(title, fontsize=9, loc="left")
        ax.tick_params(axis="x", labelsize=7)
    axes_list = axes if len(panels) > 1 else [axes]
    axes_list[-1].set_xlabel("kiln's speed-up over the fastest other library in the same run (log scale)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(f"wrote {path}")
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-doc", action="store_true", help="write only bench/results/*.json")
    parser.add_argument("--from-results", metavar="DIR", help="write the docs and chart from the JSON files in DIR")
    args = parser.parse_args()
    if args.from_results:
        docs_from(args.from_results)
        chart()
        return 0
    failed = run_all(write_doc=not args.no_doc)
    if not args.no_doc:
        chart()
    if failed:
        print(f"these suites failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
