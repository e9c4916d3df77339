"""pytest's hook for PyCUDA's tests copied beside it by run.py: the shim, and
the ``cuda`` marker PyCUDA's tests carry."""
import pycuda_shim

pycuda_shim.install()


def pytest_configure(config):
    config.addinivalue_line("markers", "cuda: PyCUDA's marker for tests that need a CUDA context")
