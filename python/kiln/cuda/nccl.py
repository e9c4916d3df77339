"""CuPy's ``cupy.cuda.nccl``: NCCL communicators over device pointers.

``NcclCommunicator(ndev, commId, rank)`` joins this process (on the current
device) to a group of ``ndev`` ranks that share ``commId`` (from
``get_unique_id()`` on one rank, passed to the others by any means);
``NcclCommunicator.initAll(devices)`` makes one communicator per device in
this process, whose calls go between ``groupStart()`` and ``groupEnd()``.
Buffers and streams are integer addresses (``a.data.ptr``,
``stream.ptr``), counts are elements, types and operations are the
``NCCL_*`` constants. kiln.distributed offers the same on arrays.

NCCL is loaded on first use: ``$KILN_NCCL_LIBRARY``, libnccl.so.2 on the
loader's path or in the CUDA toolkit, else the nvidia-nccl wheel's. NVLink
multicast stays off (``NCCL_NVLS_ENABLE=0``) unless set otherwise.
"""
import ctypes.util as _ctypes_util
import os as _os
import sys as _sys

from .._cuda.backend import core as _core

# ncclDataType_t
NCCL_INT8 = NCCL_CHAR = 0
NCCL_UINT8 = 1
NCCL_INT32 = NCCL_INT = 2
NCCL_UINT32 = 3
NCCL_INT64 = 4
NCCL_UINT64 = 5
NCCL_FLOAT16 = NCCL_HALF = 6
NCCL_FLOAT32 = NCCL_FLOAT = 7
NCCL_FLOAT64 = NCCL_DOUBLE = 8
NCCL_BFLOAT16 = 9
# ncclRedOp_t
NCCL_SUM, NCCL_PROD, NCCL_MAX, NCCL_MIN, NCCL_AVG = 0, 1, 2, 3, 4
NCCL_NUM_OPS = 5


def _wheel_library():
    """The nvidia-nccl wheel's library, where no system NCCL is found."""
    if _os.environ.get("KILN_NCCL_LIBRARY") or _ctypes_util.find_library("nccl"):
        return
    for entry in _sys.path:
        path = _os.path.join(entry, "nvidia", "nccl", "lib", "libnccl.so.2")
        if _os.path.exists(path):
            _os.environ["KILN_NCCL_LIBRARY"] = path
            return


_wheel_library()


def _api():
    return _core()


def __getattr__(name):
    if name == "NcclError":  # the class lives in kiln._core, which may lack CUDA
        return _api().NcclError
    if name == "available":
        return is_available()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def is_available():
    """Whether NCCL could be loaded (a GPU is not needed to ask)."""
    try:
        return _api()._nccl_available()
    except Exception:
        return False


def get_version():
    """NCCL's version as one number (2.28.9 is 22809)."""
    return _api()._nccl_version()


def get_build_version():
    """CuPy's build-time NCCL version; kiln is built without NCCL and loads
    it at run time, so this is the version loaded."""
    return get_version()


def get_unique_id():
    """A new group id: CuPy's tuple of 128 small integers."""
    return tuple(b - 256 if b > 127 else b for b in _api()._nccl_unique_id())


def _id_bytes(comm_id):
    if isinstance(comm_id, (bytes, bytearray)):
        return bytes(comm_id)
    try:
        return bytes(int(v) & 0xFF for v in comm_id)
    except TypeError:
        raise TypeError(f"commId: expected the tuple get_unique_id() returns, got {type(comm_id).__name__}") from None


def groupStart():  # noqa: N802  (CuPy's names)
    _api()._nccl_group_start()


def groupEnd():  # noqa: N802
    _api()._nccl_group_end()


def _ptr(value):
    """An address given as an int, or as anything with ``.ptr`` (a stream, a memory pointer)."""
    return int(getattr(value, "ptr", value) or 0)


class NcclCommunicator:
    """One rank of an NCCL group (CuPy's class; methods in CuPy's spelling)."""

    def __init__(self, ndev, commId, rank):  # noqa: N803
        from .._cuda.device import get_device_id

        self._comm = _api()._NcclCommunicator.init_rank(get_device_id(), int(ndev), _id_bytes(commId), int(rank))

    @classmethod
    def _wrap(cls, comm):
        self = cls.__new__(cls)
        self._comm = comm
        return self

    @staticmethod
    def initAll(devices):  # noqa: N802
        """One communicator per device, all in this process: ``devices`` is a
        count (devices 0..n-1) or a list of device ids."""
        ids = list(range(devices)) if isinstance(devices, int) else [int(d) for d in devices]
        return [NcclCommunicator._wrap(c) for c in _api()._NcclCommunicator.init_all(ids)]

    @property
    def comm(self):
        """The ncclComm_t's address."""
        return self._comm.handle

    def device_id(self):
        return self._comm.device

    def rank_id(self):
        return self._comm.rank

    def size(self):
        return self._comm.size

    def destroy(self):
        self._comm.destroy()

    def abort(self):
        self._comm.abort()

    def check_async_error(self):
        self._comm.check_async_error()

    def allReduce(self, sendbuf, recvbuf, count, datatype, op, stream):  # noqa: N802
        self._comm.all_reduce(_ptr(sendbuf), _ptr(recvbuf), count, datatype, op, _ptr(stream))

    def reduce(self, sendbuf, recvbuf, count, datatype, op, root, stream):
        self._comm.reduce(_ptr(sendbuf), _ptr(recvbuf), count, datatype, op, root, _ptr(stream))

    def broadcast(self, sendbuff, recvbuff, count, datatype, root, stream):
        self._comm.broadcast(_ptr(sendbuff), _ptr(recvbuff), count, datatype, root, _ptr(stream))

    def bcast(self, buff, count, datatype, root, stream):
        self._comm.broadcast(_ptr(buff), _ptr(buff), count, datatype, root, _ptr(stream))

    def reduceScatter(self, sendbuf, recvbuf, recvcount, datatype, op, stream):  # noqa: N802
        self._comm.reduce_scatter(_ptr(sendbuf), _ptr(recvbuf), recvcount, datatype, op, _ptr(stream))

    def allGather(self, sendbuf, recvbuf, count, datatype, stream):  # noqa: N802
        self._comm.all_gather(_ptr(sendbuf), _ptr(recvbuf), count, datatype, _ptr(stream))

    def send(self, sendbuf, count, datatype, peer, stream):
        self._comm.send(_ptr(sendbuf), count, datatype, peer, _ptr(stream))

    def recv(self, recvbuf, count, datatype, peer, stream):
        self._comm.recv(_ptr(recvbuf), count, datatype, peer, _ptr(stream))
