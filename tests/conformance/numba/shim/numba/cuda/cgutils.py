"""Numba's LLVM IR helpers (see extending.py): kiln emits no LLVM IR."""
