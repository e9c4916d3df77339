"""kiln arrays as Dask array chunks, on either device, registered the way
Dask registers CuPy's: its dispatch tables (concatenate, take, tensordot,
einsum, percentile, numel, empty, to_numpy) and its list of chunk types.

Dask knows CuPy by name; it learns of kiln through the ``dask.sizeof`` entry
point (pyproject.toml), which Dask runs on ``import dask``. The array
tables do not exist yet then, so kiln's registration runs right after
``dask.array.backends`` (which fills CuPy's) is first imported.
"""
import importlib.abc
import importlib.util
import sys

_TARGET = "dask.array.backends"


def register_sizeof(sizeof):
    """The ``dask.sizeof`` entry point: kiln arrays' sizes, and the array tables to come."""

    @sizeof.register_lazy("kiln")
    def _sizes():
        from .._core import ndarray

        sizeof.register(ndarray)(lambda a: int(a.nbytes))

    if _TARGET in sys.modules:
        register_array_tables()
    elif not any(isinstance(f, _AfterImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterImport())


def register_array_tables():
    import kiln
    from dask.array import backends, chunk_types, dispatch

    nd = kiln.ndarray
    chunk_types.register_chunk_type(nd)
    dispatch.concatenate_lookup.register(nd, kiln.concatenate)
    dispatch.take_lookup.register(nd, kiln.take)
    dispatch.tensordot_lookup.register(nd, kiln.tensordot)
    dispatch.percentile_lookup.register(nd, backends.percentile)
    dispatch.numel_lookup.register(nd, backends._numel_arraylike)
    dispatch.nannumel_lookup.register(nd, backends._nannumel)
    dispatch.empty_lookup.register(nd, kiln.empty)
    dispatch.to_numpy_dispatch.register(nd, lambda data, **kwargs: kiln.asnumpy(data, **kwargs))

    @dispatch.einsum_lookup.register(nd)
    def _einsum(*args, **kwargs):
        kwargs.pop("casting", None)  # NumPy's einsum options that kiln's (like CuPy's) lacks
        kwargs.pop("order", None)
        return kiln.einsum(*args, **kwargs)


class _AfterImport(importlib.abc.MetaPathFinder):
    """Runs register_array_tables once dask.array.backends has executed."""

    def find_spec(self, name, path, target=None):
        if name != _TARGET:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        original = loader.exec_module

        def exec_then_register(module):
            original(module)
            register_array_tables()

        loader.exec_module = exec_then_register
        return spec
