"""PyCUDA's dialect: its modules under PyCUDA's names, so porting a PyCUDA
program is changing ``pycuda`` to ``kiln.pycuda`` (``import
kiln.pycuda.driver as cuda``, ``from kiln.pycuda.compiler import
SourceModule``)."""
