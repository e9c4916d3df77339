"""Numba's test package: ``load_testsuite`` is unittest discovery (for unittest's runner)."""
import unittest


def load_testsuite(loader, directory):
    return unittest.TestLoader().discover(directory)
