"""Where the installed package keeps kiln's C++ side, for building code
against it: CMake (``find_package(kiln CONFIG)``), setuptools, or a compiler
command line."""
import os

# The package root: this file is kiln/_installation/package_paths.py.
_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def get_include():
    """The directory of kiln's C++ headers (``kiln/array.hpp`` and the rest)."""
    return os.path.join(_HERE, "include")


def get_cmake_dir():
    """The directory of kiln's CMake package files: pass it as ``kiln_DIR``
    (or put it on ``CMAKE_PREFIX_PATH``) for ``find_package(kiln CONFIG)``."""
    return os.path.join(_HERE, "share", "cmake", "kiln")


def get_library_dir():
    """The directory holding ``libkiln.so``, which extensions link."""
    return _HERE
