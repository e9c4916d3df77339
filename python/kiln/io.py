"""Reading and writing files: DCD trajectories (CHARMM/NAMD), read and written
in C++ (include/kiln/dcd.hpp).

    traj = kiln.io.DCD("alk.traj.dcd")
    x, y, z, box = traj.read(0, 10)      # frames 0-9: (10, atoms) float32, box (10, 3)
    kiln.io.write_dcd("out.dcd", x, y, z, box=box, titles=["made by kiln"])
"""
from . import _core


class DCD:
    """An open DCD file: its header, and any range of its frames on demand."""

    def __init__(self, path):
        self.path = str(path)
        self._reader = _core._DCDReader(self.path)

    frames = property(lambda self: self._reader.frames, doc="number of frames")
    atoms = property(lambda self: self._reader.atoms, doc="number of atoms")
    titles = property(lambda self: self._reader.titles, doc="the title lines")
    has_unit_cell = property(lambda self: self._reader.has_unit_cell, doc="whether frames carry a unit cell")
    timestep = property(lambda self: self._reader.timestep, doc="DELTA, in AKMA time units")

    def read(self, start=0, count=None):
        """Frames [start, start + count) (to the end by default) as kiln CPU arrays
        (x, y, z of shape (count, atoms) float32; box (count, 3) float64 lengths,
        zeros when the file has no unit cell)."""
        if count is None:
            count = self.frames - start
        return self._reader.read(int(start), int(count))

    def __len__(self):
        return self.frames

    def __repr__(self):
        return f"<kiln.io.DCD {self.path!r}: {self.frames} frames of {self.atoms} atoms>"


def write_dcd(path, x, y, z, box=None, titles=(), timestep=0.0):
    """Writes (frames, atoms) coordinates (converted to float32) and, when `box`
    is given, a (frames, 3) unit cell per frame."""
    from ._numpy.creation import asarray

    x, y, z = (asarray(a) for a in (x, y, z))
    box = None if box is None else asarray(box)
    _core._write_dcd(str(path), x, y, z, box, [str(t) for t in titles], float(timestep))
