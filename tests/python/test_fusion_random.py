"""Random elementwise programs (fixed seeds) give the same result with
automatic fusion as op by op, bit for bit: every dtype pairing NumPy
promotes, views (reversed, transposed, strided, broadcast), 0-d arrays,
Python scalars, where, in-place updates of intermediate results, and errors,
which must come from the same call in both modes.

On the CPU the programs use the math functions too (computed through
libmvec, which kiln/device/libmvec.hpp makes round the same way in every
loop and layout). On the GPU a math function inlined into a larger kernel
may compile to other instructions than in kiln's own kernel (docs/design.md:
bit for bit with FMA contraction off holds for the arithmetic), so the GPU's
programs use the other ops only."""
import numpy as np
import pytest

import kiln
from conftest import random_array
from test_fusion import fused, same_bits  # noqa: F401  (fused is a fixture)

SHAPE = (6, 7)
DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float16", "float32", "float64", "complex64", "complex128"]
UNARY = ["negative", "abs", "square", "logical_not", "conj", "sign", "floor", "trunc", "positive", "sqrt"]
BINARY = ["add", "subtract", "multiply", "true_divide", "maximum", "minimum", "fmax", "greater", "equal",
          "not_equal", "less_equal", "logical_and", "logical_or", "logical_xor", "bitwise_xor", "bitwise_and",
          "floor_divide", "remainder", "copysign"]
MATH_UNARY = ["sin", "cos", "exp", "expm1", "log1p", "tanh", "arctan", "cbrt", "arcsinh"]
MATH_BINARY = ["arctan2", "hypot"]
# Each input is seen through one of these, always broadcasting to SHAPE.
VIEWS = ["whole", "reversed", "transposed", "strided", "row", "column", "zero_d"]


def make_inputs(rng, device):
    """The program's arrays: each a random dtype, in the layout its view needs."""
    arrays = []
    for view in VIEWS:
        dtype = DTYPES[rng.integers(len(DTYPES))]
        shape = {"whole": SHAPE, "reversed": SHAPE, "transposed": SHAPE[::-1], "strided": (SHAPE[0] * 2, SHAPE[1]),
                 "row": (SHAPE[1],), "column": (SHAPE[0], 1), "zero_d": ()}[view]
        arrays.append(kiln.array(random_array(shape, dtype, rng, low=-3, high=4), device=device))
    return arrays


def see(view, a):
    return {"whole": lambda: a, "reversed": lambda: a[::-1, ::-1], "transposed": lambda: a.T,
            "strided": lambda: a[::2], "row": lambda: a, "column": lambda: a, "zero_d": lambda: a}[view]()


def random_program(rng, depth, math):
    """A tree: ("input", k), ("scalar", v), ("unary", name, x), ("binary", name,
    x, y), ("where", c, x, y) or ("update", name, x, y): x computed, then
    `x <name>= y` in place. `math`: the math functions may appear."""
    unary, binary = (UNARY + MATH_UNARY, BINARY + MATH_BINARY) if math else (UNARY, BINARY)
    if depth == 0 or rng.random() < 0.2:
        if rng.random() < 0.25:
            kind = rng.integers(3)
            value = [bool(rng.integers(2)), int(rng.integers(-3, 4)), float(rng.uniform(-2, 2))][kind]
            return ("scalar", value)
        return ("input", int(rng.integers(len(VIEWS))))
    r = rng.random()
    if r < 0.3:
        return ("unary", unary[rng.integers(len(unary))], random_program(rng, depth - 1, math))
    if r < 0.8:
        return ("binary", binary[rng.integers(len(binary))], random_program(rng, depth - 1, math),
                random_program(rng, depth - 1, math))
    if r < 0.9:
        return ("where", random_program(rng, depth - 1, math), random_program(rng, depth - 1, math),
                random_program(rng, depth - 1, math))
    return ("update", ["add", "multiply", "subtract"][rng.integers(3)], ("binary", "add",
            random_program(rng, depth - 1, math), ("scalar", 0)), random_program(rng, depth - 1, math))


def run(node, inputs):
    kind = node[0]
    if kind == "input":
        return see(VIEWS[node[1]], inputs[node[1]])
    if kind == "scalar":
        return node[1]
    if kind == "unary":
        return getattr(kiln, node[1])(run(node[2], inputs))
    if kind == "binary":
        return getattr(kiln, node[1])(run(node[2], inputs), run(node[3], inputs))
    if kind == "where":
        return kiln.where(kiln.astype(kiln.asarray(run(node[1], inputs)), kiln.bool), run(node[2], inputs),
                          run(node[3], inputs))
    target = run(node[2], inputs)  # a fresh result (x + 0): never an input
    value = run(node[3], inputs)
    if node[1] == "add":
        target += value
    elif node[1] == "multiply":
        target *= value
    else:
        target -= value
    return target


def outcome(node, inputs):
    """The program's value as a NumPy array, or the type of the error it raised."""
    try:
        return kiln.asnumpy(kiln.asarray(run(node, inputs)))
    except Exception as e:  # noqa: BLE001 (the type is what is compared)
        return type(e)


@pytest.mark.parametrize("seed", range(100))
def test_a_random_program_gives_the_unfused_result(device, fused, seed):  # noqa: F811
    rng = np.random.default_rng(seed)
    inputs = make_inputs(rng, device)
    program = random_program(rng, depth=4, math=device.type == "cpu")
    with kiln.fusion.disabled():
        plain = outcome(program, inputs)
    got = outcome(program, inputs)
    if isinstance(plain, type):
        assert got is plain, (program, got)
        return
    assert not isinstance(got, type), (program, got)
    same_bits(got, plain)
