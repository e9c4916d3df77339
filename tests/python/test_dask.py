"""Dask arrays with kiln chunks on every device (registered as Dask registers
CuPy's, kiln/_dask_chunks.py): each dask.array operation gives what it gives
with NumPy chunks, and its chunks stay kiln arrays on the same device."""
import numpy as np
import pytest

import kiln

da = pytest.importorskip("dask.array")
import dask  # noqa: E402

OPERATIONS = {
    "elementwise": lambda d: (da.sin(d) * 2 + abs(d)) ** 2 - d / 3,
    "sum_axis0": lambda d: d.sum(axis=0),
    "mean_std_var": lambda d: da.stack([d.mean(axis=1), d.std(axis=1), d.var(axis=1, ddof=1)]),
    "max_argmax": lambda d: da.stack([d.max(axis=0), d.argmax(axis=0).astype(d.dtype)]),
    "nan_reductions": lambda d: da.stack([da.nansum(da.where(d > 0.5, np.nan, d), axis=1),
                                          da.nanmean(da.where(d > 0.5, np.nan, d), axis=1)]),
    "cumsum": lambda d: d.cumsum(axis=1),
    "matmul": lambda d: d @ d.T,
    "tensordot": lambda d: da.tensordot(d, d, axes=([0], [0])),
    "einsum": lambda d: da.einsum("ij,ij->i", d, d),
    "concatenate_stack": lambda d: da.concatenate([d, d[::-1]], axis=1).sum(axis=0),
    "transpose_rechunk": lambda d: d.T.rechunk((3, 5)) + 1,
    "reshape": lambda d: d.rechunk((5, 4)).reshape(12, 2, 4).sum(axis=2),
    "slicing_take": lambda d: d[[5, 0, 3], 1:7:2],
    "boolean_mask": lambda d: d[d > 0.25],
    "map_blocks": lambda d: d.map_blocks(lambda b: b * b.sum(), dtype=d.dtype),
    "map_overlap": lambda d: d.map_overlap(lambda b: b + b[::-1], depth=1, boundary="reflect"),
    "percentile": lambda d: da.percentile(d.ravel(), [10, 50, 90]),
    "topk": lambda d: da.topk(d.ravel(), 5),
    "where_clip": lambda d: da.where(d > 0.5, d, 0).clip(0.1, 0.8),
    "outer_broadcast": lambda d: (d[:, :1] * d[:1, :]).sum(),
}


@pytest.mark.parametrize("name", OPERATIONS)
def test_operation_with_kiln_chunks(device, name):
    x = np.random.default_rng(7).random((12, 8))
    want = OPERATIONS[name](da.from_array(x, chunks=(5, 3))).compute()
    d = da.from_array(kiln.asarray(x, device=device), chunks=(5, 3), asarray=False)
    assert isinstance(d._meta, kiln.ndarray)
    got = OPERATIONS[name](d).compute()
    # Dask merges the chunks' percentiles with NumPy on the host (as it does CuPy's)
    assert isinstance(got, kiln.ndarray) and got.device == device or name == "percentile" and device.type == "cuda"
    np.testing.assert_allclose(kiln.asnumpy(got), want, rtol=1e-12, atol=1e-12)


def test_dispatch_tables_and_sizes():
    from dask.array import chunk_types, dispatch

    assert dispatch.concatenate_lookup.dispatch(kiln.ndarray) is kiln.concatenate
    assert dispatch.tensordot_lookup.dispatch(kiln.ndarray) is kiln.tensordot
    assert chunk_types.is_valid_chunk_type(kiln.ndarray)
    assert dask.sizeof.sizeof(kiln.ones((10, 10))) == 800
    got = (da.ones(6, chunks=2) + kiln.arange(6.0)).compute()  # a dask array meets a kiln array
    assert isinstance(got, kiln.ndarray)
    np.testing.assert_array_equal(kiln.asnumpy(got), np.arange(6.0) + 1)


def test_chunks_as_numpy_and_a_threaded_scheduler(device):
    x = kiln.asarray(np.arange(100.0).reshape(10, 10), device=device)
    d = da.from_array(x, chunks=5, asarray=False)
    total = (d * 2).sum().compute(scheduler="threads")
    assert float(total) == 9900.0
    host = d.map_blocks(kiln.asnumpy, dtype=d.dtype, meta=np.empty((0, 0))).compute()
    assert isinstance(host, np.ndarray) and host.sum() == 4950.0
