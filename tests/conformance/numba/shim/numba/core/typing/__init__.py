"""``numba.core.typing``: Numba's typing engine, of which the CPU tests read
one fact (npydecl.supported_ufuncs); its other modules are names only
(internals.py)."""
