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
    devices = [kiln._ndarray.device.to_device(d.strip()) for d in spec.split(",") if d.strip()]
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


def _block_histogram(way_name, x, y, z, box, bins):
    """One frame block's histogram on a Dask worker, on its default device
    (its GPU where it has one), back as NumPy int64."""
    from . import ways

    device = kiln.default_device()
    positions = [kiln.asarray(c, dtype="float64", device=device) for c in (x, y, z)]
    return kiln.asnumpy(ways.WAYS[way_name](*positions, box, bins)).astype(np.int64)


class DaskPlacement:
    """The trajectory's frame blocks on the workers of a Dask cluster
    ('local': one started here, a worker per GPU or per two cores), each
    block's histogram computed where it lies and summed here."""

    def __init__(self, x, y, z, scheduler):
        from distributed import Client

        if scheduler == "local":
            self._cluster = _local_cluster()
            self._client = Client(self._cluster)
        else:
            self._cluster = None
            self._client = Client(scheduler)
        workers = list(self._client.scheduler_info()["workers"])
        if not workers:
            raise RuntimeError(f"the Dask cluster at {scheduler} has no workers")
        blocks = split_frames(x.shape[0], len(workers))
        self.devices = [f"dask worker {w}" for w in workers[:len(blocks)]]
        self.parts = [self._client.scatter([np.ascontiguousarray(c[a:b]) for c in (x, y, z)], workers=[w])
                      for (a, b), w in zip(blocks, workers)]

    def histogram(self, way, box, bins, frames=None):
        futures = [self._client.submit(_block_histogram, way.__name__, *(c if frames is None else
                                       self._client.submit(lambda a, n: a[:n], c, frames) for c in part),
                                       np.asarray(box), bins, pure=False) for part in self.parts]
        return sum(self._client.gather(futures))

    def close(self):
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def _local_cluster():
    """A worker per GPU, each seeing only its own; on the CPU, a worker per two cores."""
    from distributed import LocalCluster, Nanny, Scheduler, SpecCluster

    n = kiln.cuda.device_count()
    if n == 0:
        import os

        return LocalCluster(n_workers=max(1, (os.cpu_count() or 2) // 2), threads_per_worker=2, processes=True,
                            dashboard_address=None)
    workers = {i: {"cls": Nanny, "options": {"nthreads": 1, "env": {"CUDA_VISIBLE_DEVICES": str(i),
                                                                      "NCCL_NVLS_ENABLE": "0"}}}
               for i in range(n)}
    return SpecCluster(workers=workers, scheduler={"cls": Scheduler, "options": {"dashboard_address": None}})
