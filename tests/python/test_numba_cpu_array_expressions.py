"""kiln.numba: whole-array expressions in @njit functions (operators and
ufuncs of arrays and numbers make new arrays, fused into one loop), checked
against the same functions run by NumPy, with Numba's result types."""
import numpy as np
import pytest

from kiln.numba import njit

DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "uint32", "uint64", "float32", "float64",
          "complex64", "complex128"]


def _data(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    values = rng.integers(-5, 6, size=shape) if np.dtype(dtype).kind in "iub" else rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        values = values + 1j * rng.standard_normal(shape)
    if np.dtype(dtype).kind == "u":
        values = np.abs(values)
    return values.astype(dtype)


def _numba_dtype(*operands):
    """Numba's result type: NumPy's promotion of the operands' own dtypes,
    a number's included (not NumPy 2's weak Python scalars)."""
    return np.result_type(*[np.asarray(x).dtype if not isinstance(x, (int, float, complex)) else
                            np.dtype({int: "int64", float: "float64", complex: "complex128"}[type(x)])
                            for x in operands])


def add_mul(a, b):
    return a * 2 + b


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d != "bool"])
def test_operators_of_arrays_of_every_dtype(dtype):
    a, b = _data(dtype, (4, 5)), _data(dtype, (4, 5), seed=1)
    got = njit(add_mul)(a, b)
    np.testing.assert_allclose(got, add_mul(a, b), rtol=1e-6)
    assert got.dtype == _numba_dtype(a, 2, b)


OPERATORS = {"add": "a + b", "sub": "a - b", "mul": "a * b", "div": "a / b", "neg": "-a", "pos": "+a",
             "lt": "a < b", "le": "a <= b", "gt": "a > b", "ge": "a >= b", "eq": "a == b", "ne": "a != b"}
INTEGER_OPERATORS = {"floordiv": "a // b", "mod": "a % b", "and": "a & b", "or": "a | b", "xor": "a ^ b",
                     "invert": "~a", "lshift": "a << 2", "rshift": "a >> 1", "pow": "a ** 2"}


def _compiled(expression, tmp_path):
    """The function returning `expression` of a and b, from a file (kiln
    reads a compiled function's source), compiled and plain."""
    path = tmp_path / "expression.py"
    path.write_text(f"def apply(a, b):\n    return {expression}\n")
    scope = {}
    exec(compile(path.read_text(), str(path), "exec"), scope)
    return njit(scope["apply"]), scope["apply"]


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
@pytest.mark.parametrize("name", sorted(OPERATORS))
def test_every_arithmetic_and_comparison_operator(name, dtype, tmp_path):
    a, b = _data(dtype, 7), _data(dtype, 7, seed=2)
    b[b == 0] = 1
    compiled, plain = _compiled(OPERATORS[name], tmp_path)
    got, want = compiled(a, b), plain(a, b)
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert got.dtype == want.dtype


@pytest.mark.parametrize("name", sorted(INTEGER_OPERATORS))
def test_integer_operators_follow_pythons_floor_rules(name, tmp_path):
    a, b = np.arange(-6, 6, dtype=np.int64), np.array([3, -3, 2, -2, 5, 7] * 2, dtype=np.int64)
    compiled, plain = _compiled(INTEGER_OPERATORS[name], tmp_path)
    np.testing.assert_array_equal(compiled(a, b), plain(a, b))


def test_the_five_minute_guides_first_function():
    @njit
    def go_fast(a):
        trace = 0.0
        for i in range(a.shape[0]):
            trace += np.tanh(a[i, i])
        return a + trace

    x = np.arange(100).reshape(10, 10)
    np.testing.assert_allclose(go_fast(x), go_fast.py_func(x))


def identity(a):
    return np.cos(a) ** 2 + np.sin(a) ** 2


@pytest.mark.parametrize("parallel", [False, True])
def test_ufuncs_of_arrays_fuse_into_one_new_array(parallel):
    a = np.linspace(0, 10, 200_001)
    got = njit(parallel=parallel)(identity)(a)
    np.testing.assert_allclose(got, np.ones_like(a))
    assert got.dtype == np.float64 and got.flags.c_contiguous


def broadcast(a, row, column, s):
    return a * row + column - s


def test_broadcasting_of_arrays_and_numbers():
    a = _data("float64", (3, 4))
    row, column = _data("float32", 4, seed=3), _data("int32", (3, 1), seed=4)
    got = njit(broadcast)(a, row, column, 1.5)
    np.testing.assert_allclose(got, broadcast(a, row, column, 1.5))
    assert got.shape == (3, 4)


def test_views_and_strided_operands():
    a = _data("float64", (6, 8))
    f = njit(add_mul)
    np.testing.assert_allclose(f(a[::2, 1::3], a[1::2, ::3]), add_mul(a[::2, 1::3], a[1::2, ::3]))
    np.testing.assert_allclose(f(a.T, a.T), add_mul(a.T, a.T))


def test_empty_operands_make_empty_arrays():
    got = njit(add_mul)(np.ones((0, 3)), np.ones((0, 3)))
    assert got.shape == (0, 3)


def test_shapes_that_do_not_broadcast_raise_numpys_value_error():
    with pytest.raises(ValueError, match="broadcast"):
        njit(add_mul)(np.ones(3), np.ones(4))


def test_a_scalar_of_another_kind_promotes_as_in_numba():
    @njit
    def f(a, s):
        return a * s

    assert f(np.ones(2, np.float32), 2.0).dtype == np.float64  # Numba: the float is a float64
    assert f(np.ones(2, np.int32), 2).dtype == np.int64
    assert f(np.ones(2, np.float32), 1j).dtype == np.complex128


def in_place(a, b):
    a += b
    a *= 2
    return a


def test_augmented_assignment_writes_the_callers_array():
    a, b = np.arange(6.0).reshape(2, 3), np.arange(3.0)
    want = in_place(a.copy(), b)
    got = njit(in_place)(a, b)
    np.testing.assert_array_equal(a, want)  # in place, as NumPy's a += b
    assert got is a


def test_in_place_needs_numpys_same_kind_cast():
    from kiln._jit.errors import TypingError

    with pytest.raises(TypingError, match="same_kind"):
        njit(in_place)(np.ones(3, np.int64), np.ones(3))


def store(a, b):
    a[1:] = b * 2
    a[0, :] = 7
    return a


def test_slice_assignment_broadcasts_an_array():
    a, b = np.zeros((3, 3)), np.arange(3.0)
    np.testing.assert_array_equal(njit(store)(a.copy(), b), store(a.copy(), b))


def test_slice_assignment_of_a_misfit_array_raises():
    with pytest.raises(ValueError, match="broadcast"):
        njit(store)(np.zeros((3, 3)), np.arange(2.0))


def reduce_expression(a, b):
    return (a * b).sum(), np.sqrt(a * a + b * b).max()  # a tuple of numbers


def test_an_expression_feeds_a_reduction():
    a, b = _data("float64", 50), _data("float64", 50, seed=5)
    got = njit(reduce_expression)(a, b)
    np.testing.assert_allclose(got, reduce_expression(a, b))


def test_a_kernel_still_needs_an_output_array():
    from kiln import cuda
    from kiln._jit.errors import TypingError

    @cuda.jit
    def kernel(a, out):
        out[0] = (a + 1)[0]

    with pytest.raises(TypingError, match="output array"):
        kernel[1, 1](np.ones(3), np.ones(3))


def test_tuples_of_arrays_and_numbers_come_back():
    @njit
    def parts(a, n):
        made = np.arange(n) * 2
        return a * 2, made, made[1:], a[::2], n + 1, (np.zeros(2), a)

    a = np.arange(6.0)
    doubled, made, tail, every_other, count, (zeros, same) = parts(a, 4)
    np.testing.assert_array_equal(doubled, a * 2)
    np.testing.assert_array_equal(made, [0, 2, 4, 6])
    np.testing.assert_array_equal(tail, [2, 4, 6])
    tail[0] = -1  # a view of the made array, as in NumPy
    assert made[1] == -1
    every_other[0] = 9.0  # a view of the argument's memory
    assert a[0] == 9.0
    np.testing.assert_array_equal(same, a)
    assert count == 5 and zeros.shape == (2,)


def test_a_view_of_a_made_array_outlives_the_call():
    @njit
    def middle(n):
        return np.arange(n)[2:-2]

    views = [middle(10) for _ in range(50)]
    for v in views:
        np.testing.assert_array_equal(v, np.arange(2, 8))


def test_boolean_mask_indexing_reads_and_writes_the_selected_elements():
    @njit
    def select(a, low):
        return a[a > low]

    @njit
    def clip_low(a, low, fill):
        a[a < low] = fill
        return a

    @njit
    def replace(a, b):
        a[a > 0] = b[b > 0]
        return a

    for a in (np.arange(-5, 7), np.arange(24.0).reshape(4, 6) - 10, np.arange(12)[::2]):
        np.testing.assert_array_equal(select(a, 2), select.py_func(a, 2))
        np.testing.assert_array_equal(clip_low(a.copy(), 0, -1), clip_low.py_func(a.copy(), 0, -1))
    a, b = np.array([1.0, -2.0, 3.0]), np.array([5.0, -1.0, 6.0])
    np.testing.assert_array_equal(replace(a.copy(), b), replace.py_func(a.copy(), b))
    assert select(np.arange(3), 10).shape == (0,)
    with pytest.raises(IndexError):
        njit(index_by_mask)(np.arange(4), np.ones(3, bool))


def index_by_mask(a, mask):
    return a[mask]
