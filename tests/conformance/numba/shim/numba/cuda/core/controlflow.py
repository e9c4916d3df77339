"""Numba's control-flow graph classes, which test_flow_control.py imports at
its top. kiln translates kernels from the Python AST and has no Numba IR or
CFG, so these are names only, so that the file's kernel tests
(TestFlowControl) run; using one raises, and the tests of Numba's CFG
(TestCFGraph, TestRealCodeDomFront) are in out_of_scope.txt."""


class _NumbaInternal:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} is Numba's internal analysis; kiln has no Numba IR")


class CFGraph(_NumbaInternal):
    pass


class ControlFlowAnalysis(_NumbaInternal):
    pass
