"""The N-Ways lab's science: the pair-distance histogram's conventions, g(r)
normalised by the ideal gas, and the pair entropies s2 and s2bond, written
to RDF.dat and Pair_entropy.dat in the lab's format.

Conventions (the lab's, kept exactly):
- the histogram counts ordered pairs (i, j) over all atoms of each frame,
  i == j included (those land in bin 0, below r = 2 where g is not used);
- minimum-image distances per axis: d -= L * round(d / L), round half to even;
- cut = box / 2 and bin width = box / (2 * bins), box the smallest edge;
- every way computes r = sqrt((dx*dx + dy*dy) + dz*dz) in float64 without
  fused multiply-adds, so they all agree on every bin exactly.
"""
import math

import numpy as np

BINS = 2000


def geometry(box, bins=BINS):
    """(cut, bin width) for a (3,) array of box edges."""
    edge = float(min(box))
    return edge * 0.5, edge / (2.0 * bins)


def histogram_reference(x, y, z, box, bins=BINS):
    """The serial reference: the lab's double loop, one atom's row at a time in
    NumPy. x, y, z: (frames, atoms); box: (3,) edges."""
    x, y, z = (np.asarray(a, dtype=np.float64) for a in (x, y, z))
    lx, ly, lz = (float(v) for v in box)
    cut, width = geometry(box, bins)
    hist = np.zeros(bins, dtype=np.int64)
    for f in range(x.shape[0]):
        for i in range(x.shape[1]):
            dx = x[f, i] - x[f]
            dy = y[f, i] - y[f]
            dz = z[f, i] - z[f]
            dx = dx - lx * np.round(dx / lx)
            dy = dy - ly * np.round(dy / ly)
            dz = dz - lz * np.round(dz / lz)
            r = np.sqrt((dx * dx + dy * dy) + dz * dz)
            hist += np.bincount((r[r < cut] / width).astype(np.int64), minlength=bins)[:bins]
    return hist


def rdf(hist, frames, atoms, box):
    """(r at bin centres, g(r)) from the histogram, as the lab normalises it."""
    bins = len(hist)
    edge = float(min(box))
    _, width = geometry(box, bins)
    rho = atoms / (edge * edge * edge)
    norm = 4.0 * math.pi * rho / 3.0
    lower = np.arange(bins) * width
    upper = lower + width
    nideal = norm * (upper ** 3 - lower ** 3)
    g = np.asarray(hist, dtype=np.float64) / frames / atoms / nideal
    return (np.arange(bins) + 0.5) * width, g


def pair_entropy(g, atoms, box):
    """(s2, s2bond): -2 pi rho sum (g ln g - g + 1) dr r^2 over r = i * dr, with
    g = 0 below r = 2, ln g = 0 where g < 1e-5 (1e-6 for s2bond)."""
    bins = len(g)
    edge = float(min(box))
    _, width = geometry(box, bins)
    rho = atoms / (edge * edge * edge)
    s2 = s2bond = 0.0
    for i in range(bins):
        r = i * width
        gi = 0.0 if r < 2.0 else float(g[i])
        lngr = 0.0 if gi < 1e-5 else math.log(gi)
        lngrbond = 0.0 if gi < 1e-6 else math.log(gi)
        s2 -= 2.0 * math.pi * rho * (gi * lngr - gi + 1.0) * width * r * r
        s2bond -= 2.0 * math.pi * rho * (gi * lngrbond - gi + 1.0) * width * r * r
    return s2, s2bond


def write_outputs(directory, r, g, s2, s2bond):
    """RDF.dat ("r g" per line) and Pair_entropy.dat, as the lab writes them;
    returns their paths."""
    import os

    rdf_path = os.path.join(directory, "RDF.dat")
    entropy_path = os.path.join(directory, "Pair_entropy.dat")
    with open(rdf_path, "w") as f:
        f.writelines(f"{ri:f} {gi:f}\n" for ri, gi in zip(r, g))
    with open(entropy_path, "w") as f:
        f.write(f"s2 value is {s2:f}\ns2bond value is {s2bond:f}\n")
    return rdf_path, entropy_path
