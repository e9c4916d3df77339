"""What every kiln.distributed backend shares: the collectives' signatures
(cupyx.distributed's), their argument checks, and the barrier through the
store. Subclasses move the data."""
import kiln

OPS = ("sum", "prod", "max", "min")


class Communicator:
    """One rank of a group of ``n_devices`` processes (cupyx.distributed's
    communicator interface). Every rank calls the same collectives in the
    same order; each call queues its work on ``stream`` (the current stream
    of the array's device when None) and returns."""

    def __init__(self, n_devices, rank, store):
        self._n_devices = n_devices
        self._rank = rank
        self._store = store
        self._barriers = 0

    @property
    def rank(self):
        return self._rank

    @property
    def n_devices(self):
        return self._n_devices

    # -- checks shared by the backends ------------------------------------------
    def _check_op(self, op):
        if op not in OPS:
            raise ValueError(f"op: expected one of {', '.join(OPS)}, got {op!r}")
        return op

    def _check_rank(self, value, name):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < self._n_devices:
            raise ValueError(f"{name}: expected a rank in [0, {self._n_devices}), got {value!r}")
        return value

    @staticmethod
    def _check_array(array, name):
        if not isinstance(array, kiln.ndarray):
            raise TypeError(f"{name}: expected a kiln array, got {type(array).__name__}")
        if not array.flags.c_contiguous:
            raise ValueError(f"{name}: the array must be C-contiguous")
        return array

    def _check_pair(self, in_array, out_array, in_size, out_size):
        """Arrays of one dtype and device, with the element counts the collective needs."""
        self._check_array(in_array, "in_array")
        self._check_array(out_array, "out_array")
        if in_array.dtype != out_array.dtype:
            raise TypeError(f"out_array: dtype {out_array.dtype} differs from in_array's {in_array.dtype}")
        if in_array.device != out_array.device:
            raise ValueError(f"out_array: on {out_array.device}, in_array on {in_array.device}")
        if in_array.size != in_size:
            raise ValueError(f"in_array: expected {in_size} elements, got {in_array.size}")
        if out_array.size != out_size:
            raise ValueError(f"out_array: expected {out_size} elements, got {out_array.size}")

    def _check_count(self, count):
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise ValueError(f"count: expected a non-negative integer, got {count!r}")
        return count

    def _rows(self, array, name):
        """The size of one rank's part of `array` (its first axis has n_devices rows)."""
        if array.ndim == 0 or array.shape[0] != self._n_devices:
            raise ValueError(f"{name}: expected a first axis of {self._n_devices} (one row per rank), "
                             f"got shape {array.shape}")
        return array.size // self._n_devices

    # -- the collectives, checked here and moved by the backend ------------------
    def all_reduce(self, in_array, out_array, op="sum", stream=None):
        """out_array = op over the ranks of in_array, on every rank."""
        self._check_pair(in_array, out_array, in_array.size, in_array.size)
        self._all_reduce(in_array, out_array, self._check_op(op), stream)

    def reduce(self, in_array, out_array, root=0, op="sum", stream=None):
        """out_array on rank `root` = op over the ranks of in_array."""
        self._check_pair(in_array, out_array, in_array.size, in_array.size)
        self._reduce(in_array, out_array, self._check_rank(root, "root"), self._check_op(op), stream)

    def broadcast(self, in_out_array, root=0, stream=None):
        """Every rank's in_out_array becomes rank `root`'s."""
        self._check_array(in_out_array, "in_out_array")
        self._broadcast(in_out_array, self._check_rank(root, "root"), stream)

    def reduce_scatter(self, in_array, out_array, count, op="sum", stream=None):
        """Rank r's out_array (count elements) = op over the ranks of
        in_array[r*count:(r+1)*count]."""
        count = self._check_count(count)
        self._check_pair(in_array, out_array, count * self._n_devices, count)
        self._reduce_scatter(in_array, out_array, count, self._check_op(op), stream)

    def all_gather(self, in_array, out_array, count, stream=None):
        """out_array[r*count:(r+1)*count] = rank r's in_array, on every rank."""
        count = self._check_count(count)
        self._check_pair(in_array, out_array, count, count * self._n_devices)
        self._all_gather(in_array, out_array, count, stream)

    def send(self, array, peer, stream=None):
        self._check_array(array, "array")
        self._send(array, self._check_rank(peer, "peer"), stream)

    def recv(self, out_array, peer, stream=None):
        self._check_array(out_array, "out_array")
        self._recv(out_array, self._check_rank(peer, "peer"), stream)

    def send_recv(self, in_array, out_array, peer, stream=None):
        """Sends in_array to `peer` and receives out_array from it, at once."""
        self._check_array(in_array, "in_array")
        self._check_array(out_array, "out_array")
        self._send_recv(in_array, out_array, self._check_rank(peer, "peer"), stream)

    def scatter(self, in_array, out_array, root=0, stream=None):
        """Rank r's out_array = in_array[r] of rank `root` (in_array matters on root only)."""
        root = self._check_rank(root, "root")
        self._check_array(out_array, "out_array")
        if self._rank == root:
            self._check_array(in_array, "in_array")
            if self._rows(in_array, "in_array") != out_array.size or in_array.dtype != out_array.dtype:
                raise ValueError(f"out_array: expected {in_array.dtype} of {self._rows(in_array, 'in_array')} "
                                 f"elements, got {out_array.dtype} of {out_array.size}")
        self._scatter(in_array, out_array, root, stream)

    def gather(self, in_array, out_array, root=0, stream=None):
        """out_array[r] on rank `root` = rank r's in_array."""
        root = self._check_rank(root, "root")
        self._check_array(in_array, "in_array")
        if self._rank == root:
            self._check_array(out_array, "out_array")
            if self._rows(out_array, "out_array") != in_array.size or in_array.dtype != out_array.dtype:
                raise ValueError(f"out_array: expected {self._n_devices} rows of {in_array.size} {in_array.dtype}, "
                                 f"got shape {out_array.shape} of {out_array.dtype}")
        self._gather(in_array, out_array, root, stream)

    def all_to_all(self, in_array, out_array, stream=None):
        """out_array[r] = rank r's in_array[this rank]."""
        size = self._rows(in_array, "in_array")
        self._check_pair(in_array, out_array, in_array.size, in_array.size)
        self._rows(out_array, "out_array")
        self._all_to_all(in_array, out_array, size, stream)

    def barrier(self):
        """Waits until every rank has reached this barrier (and their queued GPU work is done)."""
        self._synchronize()
        self._barriers += 1
        key = f"barrier/{self._barriers}"
        if self._store.add(key, 1) == self._n_devices:
            self._store.set(key + "/done", b"1")
        self._store.get(key + "/done")

    def stop(self):
        """Leaves the group: a last barrier, then the backend's resources and the store go."""
        if self._store is None:
            return
        self.barrier()
        self._release()
        # Rank 0 serves the store: it waits until every rank has had its last answer.
        if self._store.add("left", 1) == self._n_devices:
            self._store.set("left/done", b"1")
        if self._rank == 0:
            self._store.get("left/done")
        self._store.close()
        self._store = None

    def _synchronize(self):
        """Waits for the work this rank queued (nothing to wait for on the host)."""

    def _release(self):
        """Frees the backend's resources."""
