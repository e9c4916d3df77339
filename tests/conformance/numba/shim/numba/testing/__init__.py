"""``numba.testing``: the one helper Numba's test packages' __init__ files
import (load_testsuite, for unittest's load_tests protocol)."""
import os


def load_testsuite(loader, directory):
    """The tests of the test_*.py files in `directory`, as unittest discovers them."""
    return loader.discover(directory, top_level_dir=os.path.dirname(os.path.dirname(os.path.dirname(directory))))
