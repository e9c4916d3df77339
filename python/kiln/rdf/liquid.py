"""A liquid to analyse when no trajectory is given: atoms in a periodic cube
at a liquid's density, kept apart by a soft core, moving a little from frame
to frame. Its g(r) is zero inside the core, has a clear first peak at the
nearest-neighbour distance and decays to 1, like the lab's `alk.traj.dcd`.

The recipe: a shuffled simple-cubic lattice, shaken hard (a Gaussian
displacement of 0.3 lattice spacings, which melts the lattice order), then
relaxed by pushing every overlapping pair apart until no two atoms are closer
than the core diameter. Each further frame shakes the previous one a little
and relaxes again; each recorded frame adds thermal noise to the relaxed
state. Deterministic for a seed.
"""
import numpy as np

DEFAULT_ATOMS = 6720
DEFAULT_FRAMES = 10
DEFAULT_BOX = 61.0  # Angstrom: 6720 atoms at 0.0296 per cubic Angstrom


def close_pairs(pos, box, cutoff):
    """(i, j, displacement i - j under the minimum image, distance) for the
    pairs i < j closer than `cutoff`, found through a grid of cells."""
    n = len(pos)
    cells = max(3, int(box // cutoff))
    cell = np.floor(pos / (box / cells)).astype(np.int64) % cells
    cid = (cell[:, 0] * cells + cell[:, 1]) * cells + cell[:, 2]
    order = np.argsort(cid, kind="stable")
    counts = np.bincount(cid, minlength=cells ** 3)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    table = np.full((cells ** 3, max(1, counts.max())), -1, dtype=np.int64)
    sorted_cid = cid[order]
    table[sorted_cid, np.arange(n) - starts[sorted_cid]] = order
    found = []
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for dz in (-1, 0, 1):
                other = (cell + (dx, dy, dz)) % cells
                j = table[(other[:, 0] * cells + other[:, 1]) * cells + other[:, 2]]  # (n, per cell)
                i = np.broadcast_to(np.arange(n)[:, None], j.shape)
                keep = j > i  # each pair once, no atom with itself
                found.append((i[keep], j[keep]))
    i = np.concatenate([f[0] for f in found])
    j = np.concatenate([f[1] for f in found])
    d = pos[i] - pos[j]
    d -= box * np.round(d / box)
    r = np.sqrt((d * d).sum(axis=1))
    near = r < cutoff
    return i[near], j[near], d[near], r[near]


def relax(pos, box, core, rounds):
    """Pushes overlapping pairs apart (each atom of a pair by half the overlap)."""
    for _ in range(rounds):
        i, j, d, r = close_pairs(pos, box, core)
        if len(i) == 0:
            break
        push = ((core - r) / 2 / np.maximum(r, 1e-9))[:, None] * d
        np.add.at(pos, i, push)
        np.add.at(pos, j, -push)
        pos %= box
    return pos


def generate(atoms=DEFAULT_ATOMS, frames=DEFAULT_FRAMES, box=DEFAULT_BOX, seed=0):
    """(x, y, z) of shape (frames, atoms) float32 and the box length."""
    if atoms < 2 or frames < 1 or box <= 0:
        raise ValueError("generate: needs at least 2 atoms, 1 frame and a positive box")
    rng = np.random.default_rng(seed)
    side = int(np.ceil(atoms ** (1 / 3)))
    spacing = box / side
    core = 0.95 * spacing
    grid = np.stack(np.meshgrid(*[np.arange(side)] * 3, indexing="ij"), axis=-1).reshape(-1, 3)
    pos = (grid[rng.permutation(len(grid))[:atoms]] + 0.5) * spacing
    pos = (pos + rng.normal(0, 0.3 * spacing, pos.shape)) % box
    pos = relax(pos, box, core, rounds=60)
    out = np.empty((3, frames, atoms), dtype=np.float32)
    for f in range(frames):
        if f:
            pos = relax((pos + rng.normal(0, 0.05 * spacing, pos.shape)) % box, box, core, rounds=20)
        # What is recorded carries thermal motion on top of the relaxed state,
        # which smooths the pile-up of pairs at the core into a liquid's peak.
        out[:, f] = ((pos + rng.normal(0, 0.04 * spacing, pos.shape)) % box).T
    return out[0], out[1], out[2], box
