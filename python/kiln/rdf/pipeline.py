"""The N-Ways lab end to end: read (or generate) a trajectory, histogram its
pair distances every way kiln offers, check that every way gives the same
histogram, then g(r), s2 and s2bond, RDF.dat, Pair_entropy.dat and a plot."""
import os
import sys
import time

import numpy as np

import kiln

from . import liquid, multi_device, science, ways


def generated_trajectory(directory, atoms, frames, seed=0):
    """The generated liquid as a DCD in `directory`, made once and reused."""
    path = os.path.join(directory, f"liquid-{atoms}x{frames}-seed{seed}.dcd")
    if not os.path.exists(path):
        box = liquid.DEFAULT_BOX * (atoms / liquid.DEFAULT_ATOMS) ** (1 / 3)  # the default density
        x, y, z, box = liquid.generate(atoms=atoms, frames=frames, box=box, seed=seed)
        kiln.io.write_dcd(path, x, y, z, box=np.full((frames, 3), box), titles=[
            "kiln's generated liquid", f"{atoms} atoms, {frames} frames, seed {seed}"])
    return path


def _progress(done, total, label, stream=sys.stderr):
    width = 30
    filled = int(width * done / total)
    stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {label:<24}")
    if done == total:
        stream.write("\n")
    stream.flush()


def run(dcd=None, frames=None, bins=science.BINS, device=None, way_names=None, out_dir=".", atoms=6720,
        generated_frames=10, plot=True, progress=True, devices=None, dask=None):
    """Runs the pipeline; returns a dict of what it did (times in seconds).
    `devices` ('all' or 'cuda:0,cuda:1') splits the frames over several
    devices (multi_device.py) instead of running on `device`; `dask` (a
    scheduler's address, or 'local') over the workers of a Dask cluster."""
    os.makedirs(out_dir, exist_ok=True)
    path = dcd or generated_trajectory(out_dir, atoms, generated_frames if frames is None else max(int(frames), 1))
    traj = kiln.io.DCD(path)
    count = traj.frames if frames is None else min(int(frames), traj.frames)
    if count < 1:
        raise ValueError(f"{path} has no frames to analyse")
    if not traj.has_unit_cell:
        raise ValueError(f"{path} has no unit cell, so the box is unknown")
    x, y, z, boxes = traj.read(0, count)
    box = kiln.asnumpy(boxes)[0]
    if dask is not None:
        placement = multi_device.DaskPlacement(*(kiln.asnumpy(c) for c in (x, y, z)), dask)
        device = f"a Dask cluster ({len(placement.devices)} workers)"
    elif devices is not None:
        placement = multi_device.Placement(*(kiln.asnumpy(c) for c in (x, y, z)), multi_device.parse_devices(devices))
        device = ",".join(map(str, placement.devices))
    else:
        device = kiln.default_device() if device is None else kiln._ndarray.device.to_device(device)
        placement = multi_device.Placement(x, y, z, [device])
    names = list(way_names or ways.WAYS)
    unknown = [n for n in names if n not in ways.WAYS]
    if unknown:
        raise ValueError(f"unknown ways {unknown}; choose from {list(ways.WAYS)}")
    histograms, seconds = {}, {}
    for k, name in enumerate(names):
        if progress:
            _progress(k, len(names), name)
        placement.histogram(ways.WAYS[name], box, bins, frames=1)  # compiles and warms up on one frame
        start = time.perf_counter()
        histograms[name] = placement.histogram(ways.WAYS[name], box, bins)
        seconds[name] = time.perf_counter() - start
    if progress:
        _progress(len(names), len(names), "done")
    if dask is not None:
        placement.close()
    reference = histograms[names[0]]
    disagree = [n for n in names if not np.array_equal(histograms[n], reference)]
    r, g = science.rdf(reference, count, traj.atoms, box)
    s2, s2bond = science.pair_entropy(g, traj.atoms, box)
    files = list(science.write_outputs(out_dir, r, g, s2, s2bond))
    if plot:
        png = _plot(out_dir, r, g)
        if png:
            files.append(png)
    return {"trajectory": path, "frames": count, "atoms": traj.atoms, "box": box, "device": str(device),
            "seconds": seconds, "agree": not disagree, "disagree": disagree, "s2": s2, "s2bond": s2bond,
            "files": files}


def _plot(out_dir, r, g):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(no plot: matplotlib is not installed)")
        return None
    fig, ax = plt.subplots(figsize=(7, 4))
    # Bin 0 holds the lab's self pairs (r = 0), orders of magnitude above the
    # rest and no pair distance: the plot starts at bin 1.
    ax.plot(r[1:], g[1:], lw=1)
    ax.axhline(1.0, color="grey", lw=0.5)
    ax.set_xlabel("r (Angstrom)")
    ax.set_ylabel("g(r)")
    ax.set_title("Radial distribution function")
    path = os.path.join(out_dir, "RDF.png")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
