"""kiln.distributed on NCCL: one process per GPU, arrays on that GPU, every
collective queued on a stream of it (cupyx.distributed's NCCLBackend)."""
import kiln

from ..cuda import nccl
from ._communicator import Communicator

# NCCL's codes for the dtypes it reduces natively.
_NCCL_TYPES = {
    "int8": nccl.NCCL_INT8, "uint8": nccl.NCCL_UINT8, "int32": nccl.NCCL_INT32, "uint32": nccl.NCCL_UINT32,
    "int64": nccl.NCCL_INT64, "uint64": nccl.NCCL_UINT64, "float16": nccl.NCCL_FLOAT16,
    "float32": nccl.NCCL_FLOAT32, "float64": nccl.NCCL_FLOAT64,
}
_NCCL_OPS = {"sum": nccl.NCCL_SUM, "prod": nccl.NCCL_PROD, "max": nccl.NCCL_MAX, "min": nccl.NCCL_MIN}
# NumPy's bool arithmetic is logical: a sum is an "or" (max of 0/1 bytes), a product an "and" (min).
_BOOL_OPS = {"sum": nccl.NCCL_MAX, "prod": nccl.NCCL_MIN, "max": nccl.NCCL_MAX, "min": nccl.NCCL_MIN}
# 16-bit integers, which NCCL lacks, are reduced as 32-bit ones: the wrapped
# result is NumPy's either way.
_WIDENED = {"int16": "int32", "uint16": "uint32"}


def _layout(dtype, op):
    """(NCCL type, elements per array element, NCCL op) for moving or reducing `dtype` with `op`."""
    name = str(dtype)
    if name == "bool":
        return nccl.NCCL_UINT8, 1, _BOOL_OPS.get(op)
    if name in ("complex64", "complex128"):
        if op not in (None, "sum"):
            raise TypeError(f"op: {op!r} is not defined for {name} (only 'sum' is)")
        return (nccl.NCCL_FLOAT32 if name == "complex64" else nccl.NCCL_FLOAT64), 2, nccl.NCCL_SUM
    if name in _NCCL_TYPES:
        return _NCCL_TYPES[name], 1, None if op is None else _NCCL_OPS[op]
    if name in ("int16", "uint16") and op is None:  # moved, not reduced: as bytes
        return nccl.NCCL_UINT8, 2, None
    raise TypeError(f"dtype: NCCL cannot reduce {name}")


class NCCLBackend(Communicator):
    """A rank on the current GPU; its arrays must live there."""

    def __init__(self, n_devices, rank, store, use_mpi=False):
        super().__init__(n_devices, rank, store)
        self._device = kiln.cuda.get_device_id()
        if use_mpi:
            from mpi4py import MPI

            group_id = MPI.COMM_WORLD.bcast(nccl.get_unique_id() if rank == 0 else None, root=0)
        else:
            if rank == 0:
                store.set("nccl/id", bytes(b & 0xFF for b in nccl.get_unique_id()))
            group_id = store.get("nccl/id")
        with kiln.cuda.Device(self._device):
            self._comm = nccl.NcclCommunicator(n_devices, group_id, rank)

    @property
    def device(self):
        return self._device

    def _on_device(self, array, name):
        if array.device.type != "cuda" or array.device.index != self._device:
            raise ValueError(f"{name}: on {array.device}, but this rank's communicator is on cuda:{self._device}")
        return array.data.ptr

    def _stream(self, stream):
        if stream is None:
            stream = kiln.cuda.get_current_stream(self._device)
        return int(getattr(stream, "ptr", stream) or 0)

    def _reducing(self, in_array, out_array, op, call):
        """Runs call(send, recv, element_factor, nccl_type, nccl_op) on NCCL-reducible buffers."""
        widened = _WIDENED.get(str(in_array.dtype))
        if widened is not None:
            wide_in = in_array.astype(widened)
            wide_out = kiln.empty(out_array.shape, dtype=widened, device=out_array.device)
            self._reducing(wide_in, wide_out, op, call)
            kiln.copyto(out_array, wide_out.astype(out_array.dtype))
            return
        dtype, factor, code = _layout(in_array.dtype, op)
        call(self._on_device(in_array, "in_array"), self._on_device(out_array, "out_array"), factor, dtype, code)

    def _all_reduce(self, in_array, out_array, op, stream):
        self._reducing(in_array, out_array, op, lambda send, recv, f, t, o: self._comm.allReduce(
            send, recv, in_array.size * f, t, o, self._stream(stream)))

    def _reduce(self, in_array, out_array, root, op, stream):
        self._reducing(in_array, out_array, op, lambda send, recv, f, t, o: self._comm.reduce(
            send, recv, in_array.size * f, t, o, root, self._stream(stream)))

    def _reduce_scatter(self, in_array, out_array, count, op, stream):
        self._reducing(in_array, out_array, op, lambda send, recv, f, t, o: self._comm.reduceScatter(
            send, recv, count * f, t, o, self._stream(stream)))

    def _moved(self, array):
        """(NCCL type, element count) that moves `array`'s bytes."""
        dtype, factor, _ = _layout(array.dtype, None)
        return dtype, array.size * factor

    def _broadcast(self, array, root, stream):
        ptr = self._on_device(array, "in_out_array")
        dtype, count = self._moved(array)
        self._comm.broadcast(ptr, ptr, count, dtype, root, self._stream(stream))

    def _all_gather(self, in_array, out_array, count, stream):
        dtype, n = self._moved(in_array)
        self._comm.allGather(self._on_device(in_array, "in_array"), self._on_device(out_array, "out_array"),
                             n, dtype, self._stream(stream))

    def _send(self, array, peer, stream):
        dtype, count = self._moved(array)
        self._comm.send(self._on_device(array, "array"), count, dtype, peer, self._stream(stream))

    def _recv(self, out_array, peer, stream):
        dtype, count = self._moved(out_array)
        self._comm.recv(self._on_device(out_array, "out_array"), count, dtype, peer, self._stream(stream))

    def _send_recv(self, in_array, out_array, peer, stream):
        nccl.groupStart()
        try:
            self._send(in_array, peer, stream)
            self._recv(out_array, peer, stream)
        finally:
            nccl.groupEnd()

    def _rows_of(self, array, name):
        """The addresses of `array`'s n_devices rows, and their (NCCL type, count)."""
        ptr = self._on_device(array, name)
        dtype, count = self._moved(array)
        step = array.nbytes // self._n_devices
        return [ptr + r * step for r in range(self._n_devices)], dtype, count // self._n_devices

    def _scatter(self, in_array, out_array, root, stream):
        s = self._stream(stream)
        dtype, count = self._moved(out_array)
        nccl.groupStart()
        try:
            if self._rank == root:
                rows, row_type, row_count = self._rows_of(in_array, "in_array")
                for r, ptr in enumerate(rows):
                    self._comm.send(ptr, row_count, row_type, r, s)
            self._comm.recv(self._on_device(out_array, "out_array"), count, dtype, root, s)
        finally:
            nccl.groupEnd()

    def _gather(self, in_array, out_array, root, stream):
        s = self._stream(stream)
        dtype, count = self._moved(in_array)
        nccl.groupStart()
        try:
            self._comm.send(self._on_device(in_array, "in_array"), count, dtype, root, s)
            if self._rank == root:
                rows, row_type, row_count = self._rows_of(out_array, "out_array")
                for r, ptr in enumerate(rows):
                    self._comm.recv(ptr, row_count, row_type, r, s)
        finally:
            nccl.groupEnd()

    def _all_to_all(self, in_array, out_array, size, stream):
        s = self._stream(stream)
        sends, dtype, count = self._rows_of(in_array, "in_array")
        recvs, _, _ = self._rows_of(out_array, "out_array")
        nccl.groupStart()
        try:
            for r in range(self._n_devices):
                self._comm.send(sends[r], count, dtype, r, s)
                self._comm.recv(recvs[r], count, dtype, r, s)
        finally:
            nccl.groupEnd()

    def _synchronize(self):
        kiln.cuda.Device(self._device).synchronize()

    def _release(self):
        self._comm.destroy()
