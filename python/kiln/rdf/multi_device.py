"""The pair histogram on several devices at once: the frames are split into
contiguous blocks, one per device (frames are independent and the histogram
is a sum over them), every device's block is launched before any result is
awaited, and the per-device histograms are summed onto the first device by
an NCCL reduce (a host sum where NCCL or a GPU is missing). The sum is of
integers, so the histogram is the one-device histogram, bit for bit."""
import numpy as np

import kiln


def parse_devices(spec):
    """'all' (every GPU, else the CPU) or a comma-separated list such as 'cuda:0,cuda:1'."""
    if spec == "all":
        n = kiln.cuda.device_count()
        return [kiln.Device(f"cuda:{i}") for i in range(n)] if n else [kiln.Device("cpu")]
    devices = [kiln._device.to_device(d.strip()) for d in spec.split(",") if d.strip()]
    if not devices:
        raise ValueError(f"devices: expected 'all' or a list such as cuda:0,cuda:1, got {spec!r}")
    if len(set(map(str, devices))) != len(devices):
        raise ValueError(f"devices: {spec!r} names a device twice")
    return devices


def split_frames(frames, parts):
    """Contiguous (start, stop) blocks of frames, as even as they come; empty blocks left out."""
    bounds = np.linspace(0, frames, parts + 1).round().astype(int)
    return [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]


class Placement:
    """The trajectory's frame blocks, each on its device."""

    def __init__(self, x, y, z, devices):
        blocks = split_frames(x.shape[0], len(devices))
        self.devices = devices[:len(blocks)]
        self.parts = [tuple(kiln.asarray(c[a:b], dtype="float64", device=d) for c in (x, y, z))
                      for (a, b), d in zip(blocks, self.devices)]
        self._communicators = None

    def _nccl(self):
        if self._communicators is None:
            self._communicators = False
            if len(self.devices) > 1 and all(d.type == "cuda" for d in self.devices):
                from kiln.cuda import nccl

                if nccl.is_available():
                    self._communicators = nccl.NcclCommunicator.initAll([d.index for d in self.devices])
        return self._communicators

    def histogram(self, way, box, bins, frames=None):
        """way's histogram of every block (of the first `frames` frames of each, for a warm-up), summed."""
        counts = [way(*(c[:frames] for c in part), box, bins) for part in self.parts]  # queued on every device
        return self.combine(counts)

    def combine(self, counts):
        comms = self._nccl()
        if not comms:
            return sum(kiln.asnumpy(c).astype(np.int64) for c in counts)
        from kiln.cuda import nccl

        # On its block's device (a host way, serial, answers on the CPU: NCCL
        # reading host memory would fault the GPU).
        counts = [kiln.asarray(c, dtype="int64", device=d) for c, d in zip(counts, self.devices)]
        total = kiln.empty_like(counts[0])
        nccl.groupStart()
        for comm, c, device in zip(comms, counts, self.devices):
            out = total if device == self.devices[0] else c  # only the root's receive buffer is written
            comm.reduce(c.data.ptr, out.data.ptr, c.size, nccl.NCCL_INT64, nccl.NCCL_SUM, 0,
                        kiln.cuda.get_current_stream(device.index).ptr)
        nccl.groupEnd()
        return kiln.asnumpy(total)
