"""NumPy's namespace (CuPy's), implemented; a package or module per section of NumPy's routines."""
