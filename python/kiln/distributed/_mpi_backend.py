"""kiln.distributed on MPI (mpi4py), for processes started by mpiexec on one
machine or many. CPU arrays go to MPI without a copy; GPU arrays go as they
are where the MPI library is CUDA-aware (Open MPI's MPIX_Query_cuda_support),
else through host memory. kiln arrays are also plain mpi4py buffers
(through DLPack) wherever MPI can read their memory."""
import ctypes

import numpy as np

import kiln

from ._communicator import Communicator

# NumPy's bool arithmetic is logical; MPI reduces C booleans with LOR/LAND only.
_BOOL_OPS = {"sum": "LOR", "prod": "LAND", "max": "LOR", "min": "LAND"}
_OPS = {"sum": "SUM", "prod": "PROD", "max": "MAX", "min": "MIN"}


def cuda_aware():
    """Whether the loaded MPI library takes GPU memory (Open MPI's extension;
    False where the library cannot say)."""
    from mpi4py import MPI

    MPI.Get_version()  # MPI is loaded and initialised
    try:
        query = ctypes.CDLL(None).MPIX_Query_cuda_support
    except AttributeError:
        try:
            query = ctypes.CDLL(MPI.__file__).MPIX_Query_cuda_support
        except (AttributeError, OSError):
            return False
    query.restype = ctypes.c_int
    return bool(query())


class MPIBackend(Communicator):
    """A rank of an MPI communicator (COMM_WORLD unless given); needs no store."""

    def __init__(self, n_devices=None, rank=None, comm=None):
        from mpi4py import MPI

        self._mpi = MPI
        self._comm = comm if comm is not None else MPI.COMM_WORLD
        size, me = self._comm.Get_size(), self._comm.Get_rank()
        if n_devices not in (None, size) or rank not in (None, me):
            raise ValueError(f"n_devices/rank: MPI started {size} processes and this is rank {me}, "
                             f"not {n_devices} and {rank}")
        super().__init__(size, me, None)
        self._cuda_aware = None

    # -- buffers ----------------------------------------------------------------------
    def _direct(self, array):
        if array.device.type == "cpu":
            return True
        if self._cuda_aware is None:
            self._cuda_aware = cuda_aware()
        return self._cuda_aware

    def _buffer(self, array, reduced=False):
        """What MPI reads or writes for `array`: a NumPy view of host memory,
        the kiln array itself (CUDA-aware MPI), or a host copy. Data only
        moved goes as bytes (Open MPI 4 knows no C bool or half type);
        float16 is reduced as float32."""
        if array.device.type == "cuda":
            kiln.cuda.Device(array.device.index).synchronize()  # MPI does not order itself after streams
        if not self._direct(array):
            host = kiln.asnumpy(array)
        elif array.device.type == "cpu":
            host = np.from_dlpack(array)
        else:
            return array
        if not reduced:
            return host.reshape(-1).view(np.uint8)
        return host.astype(np.float32) if host.dtype == np.float16 else host

    @staticmethod
    def _written(out_array, buffer):
        """Copies a staged result back into out_array (nothing to do where MPI wrote it)."""
        if buffer is out_array:
            return
        if out_array.device.type == "cpu" and np.shares_memory(buffer, np.from_dlpack(out_array)):
            return
        values = np.asarray(buffer)
        values = values.view(out_array.dtype) if values.dtype == np.uint8 else values.astype(out_array.dtype)
        kiln.copyto(out_array, kiln.asarray(values.reshape(out_array.shape), device=out_array.device))

    def _op(self, dtype, op):
        return getattr(self._mpi, (_BOOL_OPS if str(dtype) == "bool" else _OPS)[op])

    def _reduce_with(self, call, in_array, out_array, op):
        send = self._buffer(in_array, reduced=True)
        recv = self._buffer(out_array, reduced=True)
        call(send, recv, self._op(in_array.dtype, op))
        self._written(out_array, recv)

    # -- the collectives ------------------------------------------------------------------
    def _all_reduce(self, in_array, out_array, op, stream):
        self._reduce_with(lambda s, r, o: self._comm.Allreduce(s, r, o), in_array, out_array, op)

    def _reduce(self, in_array, out_array, root, op, stream):
        self._reduce_with(lambda s, r, o: self._comm.Reduce(s, r, o, root), in_array, out_array, op)

    def _reduce_scatter(self, in_array, out_array, count, op, stream):
        self._reduce_with(lambda s, r, o: self._comm.Reduce_scatter_block(s, r, o), in_array, out_array, op)

    def _broadcast(self, array, root, stream):
        buffer = self._buffer(array)
        self._comm.Bcast(buffer, root)
        self._written(array, buffer)

    def _moving(self, call, in_array, out_array):
        send, recv = self._buffer(in_array), self._buffer(out_array)
        call(send, recv)
        self._written(out_array, recv)

    def _all_gather(self, in_array, out_array, count, stream):
        self._moving(self._comm.Allgather, in_array, out_array)

    def _gather(self, in_array, out_array, root, stream):
        if self._rank == root:
            self._moving(lambda s, r: self._comm.Gather(s, r, root), in_array, out_array)
        else:
            self._comm.Gather(self._buffer(in_array), None, root)

    def _scatter(self, in_array, out_array, root, stream):
        if self._rank == root:
            self._moving(lambda s, r: self._comm.Scatter(s, r, root), in_array, out_array)
        else:
            recv = self._buffer(out_array)
            self._comm.Scatter(None, recv, root)
            self._written(out_array, recv)

    def _all_to_all(self, in_array, out_array, size, stream):
        self._moving(self._comm.Alltoall, in_array, out_array)

    def _send(self, array, peer, stream):
        self._comm.Send(self._buffer(array), dest=peer)

    def _recv(self, out_array, peer, stream):
        recv = self._buffer(out_array)
        self._comm.Recv(recv, source=peer)
        self._written(out_array, recv)

    def _send_recv(self, in_array, out_array, peer, stream):
        self._moving(lambda s, r: self._comm.Sendrecv(s, dest=peer, recvbuf=r, source=peer), in_array, out_array)

    def barrier(self):
        self._comm.Barrier()

    def stop(self):
        self._comm.Barrier()
