"""NumPy's datetime64 and timedelta64 in kernels (Numba's NPDatetime and
NPTimedelta): values are int64 counts of their unit. Arithmetic and
comparisons take NumPy's result types (a datetime minus a datetime is a
timedelta, in the finer of their units), scale each operand to the result's
unit, and treat NaT as NumPy does (kiln/device/jit_support.cuh's
kiln_time_* helpers)."""
import ast

import numpy as np

from .. import types as T

_ARITHMETIC = {ast.Add: ("kiln_time_add", np.add), ast.Sub: ("kiln_time_sub", np.subtract),
               ast.Mult: ("kiln_time_mul", np.multiply), ast.FloorDiv: ("kiln_time_floordiv", np.floor_divide),
               ast.Mod: ("kiln_time_mod", np.remainder)}
_COMPARISONS = {ast.Eq: 0, ast.NotEq: 1, ast.Lt: 2, ast.LtE: 3, ast.Gt: 4, ast.GtE: 5}


def involved(*types):
    """Whether any of the (scalar) types is a datetime64 or timedelta64."""
    return any(T.is_time(t) for t in types)


def _numpy_result(ufunc, a, b):
    """NumPy's result dtype of ufunc over values of the two types, or None
    where NumPy refuses the pair."""
    try:
        return ufunc(np.empty(0, a), np.empty(0, b)).dtype
    except TypeError:
        return None


def binop_type(typer, node, op, a, b):
    """The type of `a op b` where either is a datetime or timedelta."""
    if op is ast.Div:
        r = _numpy_result(np.true_divide, a, b) if T.is_time(a) and T.is_time(b) else None
        if r is None or r.kind != "f":
            typer.typing(node, f"kernels divide a timedelta64 by another only, not {a} by {b}")
        return r
    if op not in _ARITHMETIC or not all(T.is_time(t) or T.is_int(t) for t in (a, b)):
        typer.typing(node, f"the operator {op.__name__} of {a} and {b} (datetime64 and timedelta64 take +, -, "
                           "*, // and % with each other and with integers in kernels)")
    r = _numpy_result(_ARITHMETIC[op][1], a, b)
    if r is None:
        typer.typing(node, f"NumPy has no {op.__name__} of {a} and {b}")
    return r


def compare_type(typer, node, a, b):
    if _numpy_result(np.less, a, b) is None:
        typer.typing(node, f"{a} and {b} are not comparable")


def _unit_factor(t, unit):
    """How many `unit`s one of t's units is (1 for an integer)."""
    if not T.is_time(t):
        return 1
    own, count = np.datetime_data(t)
    ratio = np.timedelta64(count, own) / np.timedelta64(1, unit)
    return int(ratio)


def _common_unit(a, b):
    """The unit both operands are counted in: NumPy's for the pair."""
    times = [t for t in (a, b) if T.is_time(t)]
    unit = np.datetime_data(np.promote_types(np.dtype(f"m8[{np.datetime_data(times[0])[0]}]"),
                                             np.dtype(f"m8[{np.datetime_data(times[-1])[0]}]")))[0]
    return unit


def binop_code(op, a, b, r, code_a, code_b):
    """C++ for `a op b` with result type r."""
    unit = np.datetime_data(r)[0] if T.is_time(r) else _common_unit(a, b)
    fa, fb = _unit_factor(a, unit), _unit_factor(b, unit)
    if op is ast.Div:
        return f"kiln_time_ratio((long long)({code_a}), {fa}LL, (long long)({code_b}), {fb}LL)"
    helper = _ARITHMETIC[op][0]
    flag = lambda t: "true" if T.is_time(t) else "false"  # noqa: E731
    return (f"kiln_time_arith<{helper}>((long long)({code_a}), {flag(a)}, {fa}LL, "
            f"(long long)({code_b}), {flag(b)}, {fb}LL)")


def compare_code(op, a, b, code_a, code_b):
    unit = _common_unit(a, b)
    return (f"kiln_time_compare<{_COMPARISONS[type(op)]}>((long long)({code_a}), {_unit_factor(a, unit)}LL, "
            f"(long long)({code_b}), {_unit_factor(b, unit)}LL)")
