"""kiln.distributed without NCCL: the data of every collective goes through
the ranks' store (rank 0's process) as bytes and is combined on the host,
in rank order, so every rank computes the same bits. For CPU arrays, and
for GPU arrays where NCCL is missing (staged through host memory). Meant
for a few processes on one machine; across machines use MPI."""
import numpy as np

import kiln

from ._communicator import Communicator

_UFUNCS = {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum}


class HostBackend(Communicator):
    def __init__(self, n_devices, rank, store):
        super().__init__(n_devices, rank, store)
        self._calls = 0
        self._sent = {}
        self._received = {}

    # -- moving bytes ------------------------------------------------------------
    def _key(self):
        self._calls += 1
        return f"host/{self._calls}"

    def _publish(self, key, array):
        self._store.set(key, kiln.asnumpy(array).tobytes())

    def _fetch(self, key, like, count=None):
        """The bytes at `key` as an array of `like`'s dtype (and `count` elements, else like's size)."""
        return np.frombuffer(self._store.get(key), dtype=like.dtype, count=like.size if count is None else count)

    def _done_reading(self, key, readers):
        """Deletes `key`'s parts once `readers` ranks have read them."""
        if self._store.add(key + "/read", 1) == readers:
            for r in range(self._n_devices):
                self._store.delete(f"{key}/{r}")
            self._store.delete(key + "/read")

    @staticmethod
    def _store_into(out_array, values):
        kiln.copyto(out_array, kiln.asarray(np.asarray(values).reshape(out_array.shape), device=out_array.device))

    def _combined(self, key, like, op, lo=0, count=None):
        """op over the ranks' parts at key/r (elements lo..lo+count of each), in rank order."""
        count = like.size if count is None else count
        result = None
        for r in range(self._n_devices):
            part = np.frombuffer(self._store.get(f"{key}/{r}"), dtype=like.dtype)[lo:lo + count]
            result = part.copy() if result is None else _UFUNCS[op](result, part)
        return result

    # -- the collectives ------------------------------------------------------------
    def _all_reduce(self, in_array, out_array, op, stream):
        key = self._key()
        self._publish(f"{key}/{self._rank}", in_array)
        result = self._combined(key, in_array, op)
        self._done_reading(key, self._n_devices)
        self._store_into(out_array, result)

    def _reduce(self, in_array, out_array, root, op, stream):
        key = self._key()
        self._publish(f"{key}/{self._rank}", in_array)
        if self._rank == root:
            self._store_into(out_array, self._combined(key, in_array, op))
            self._done_reading(key, 1)

    def _reduce_scatter(self, in_array, out_array, count, op, stream):
        key = self._key()
        self._publish(f"{key}/{self._rank}", in_array)
        result = self._combined(key, in_array, op, lo=self._rank * count, count=count)
        self._done_reading(key, self._n_devices)
        self._store_into(out_array, result)

    def _broadcast(self, array, root, stream):
        key = self._key()
        if self._rank == root:
            self._publish(f"{key}/{root}", array)
        else:
            self._store_into(array, self._fetch(f"{key}/{root}", array))
        self._done_reading(key, self._n_devices)

    def _all_gather(self, in_array, out_array, count, stream):
        key = self._key()
        self._publish(f"{key}/{self._rank}", in_array)
        parts = [self._fetch(f"{key}/{r}", in_array) for r in range(self._n_devices)]
        self._done_reading(key, self._n_devices)
        self._store_into(out_array, np.concatenate(parts))

    def _gather(self, in_array, out_array, root, stream):
        key = self._key()
        self._publish(f"{key}/{self._rank}", in_array)
        if self._rank == root:
            parts = [self._fetch(f"{key}/{r}", in_array) for r in range(self._n_devices)]
            self._store_into(out_array, np.stack(parts))
            self._done_reading(key, 1)

    def _scatter(self, in_array, out_array, root, stream):
        key = self._key()
        if self._rank == root:
            rows = kiln.asnumpy(in_array).reshape(self._n_devices, -1)
            for r in range(self._n_devices):
                self._store.set(f"{key}/{r}", rows[r].tobytes())
        self._store_into(out_array, np.frombuffer(self._store.take(f"{key}/{self._rank}"), dtype=out_array.dtype))

    def _all_to_all(self, in_array, out_array, size, stream):
        key = self._key()
        rows = kiln.asnumpy(in_array).reshape(self._n_devices, -1)
        for r in range(self._n_devices):
            self._store.set(f"{key}/{self._rank}>{r}", rows[r].tobytes())
        parts = [np.frombuffer(self._store.take(f"{key}/{r}>{self._rank}"), dtype=in_array.dtype)
                 for r in range(self._n_devices)]
        self._store_into(out_array, np.stack(parts))

    # Point to point: the n-th message from one rank to another has its own key.
    def _send(self, array, peer, stream):
        n = self._sent[peer] = self._sent.get(peer, 0) + 1
        self._publish(f"p2p/{self._rank}>{peer}/{n}", array)

    def _recv(self, out_array, peer, stream):
        n = self._received[peer] = self._received.get(peer, 0) + 1
        data = self._store.take(f"p2p/{peer}>{self._rank}/{n}")
        self._store_into(out_array, np.frombuffer(data, dtype=out_array.dtype, count=out_array.size))

    def _send_recv(self, in_array, out_array, peer, stream):
        self._send(in_array, peer, stream)  # a send only stores: it never waits for the peer
        self._recv(out_array, peer, stream)
