"""Property tests (hypothesis): random shapes, broadcasting and basic indices
against NumPy, and inputs that must raise instead of crashing."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import kiln
from conftest import assert_matches

SETTINGS = settings(max_examples=60, deadline=None)


@SETTINGS
@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4, max_side=4),
       dtypes=st.tuples(st.sampled_from(["int8", "uint16", "float32", "float64", "bool"]),
                        st.sampled_from(["int32", "float16", "complex64", "bool"])))
def test_broadcast_binary_ops(shapes, dtypes):
    rng = np.random.default_rng(0)
    a = (rng.random(shapes.input_shapes[0]) * 10).astype(dtypes[0])
    b = (rng.random(shapes.input_shapes[1]) * 10).astype(dtypes[1])
    ka, kb = kiln.asarray(a), kiln.asarray(b)
    assert_matches(ka + kb, a + b)
    assert_matches(kiln.maximum(ka, kb), np.maximum(a, b))
    assert_matches(ka == kb, a == b)


@SETTINGS
@given(data=st.data(), shape=hnp.array_shapes(min_dims=1, max_dims=4, min_side=0, max_side=6))
def test_basic_indexing(data, shape):
    x = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    index = data.draw(hnp.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True))
    k = kiln.asarray(x)
    assert_matches(k[index], x[index])
    k[index] = -1
    x[index] = -1
    assert_matches(k, x)


@SETTINGS
@given(shape=hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5), data=st.data())
def test_reductions_over_random_axes(shape, data):
    x = np.random.default_rng(1).random(shape)
    axis = data.draw(st.none() | hnp.valid_tuple_axes(len(shape)))
    keepdims = data.draw(st.booleans())
    k = kiln.asarray(x)
    assert_matches(kiln.sum(k, axis=axis, keepdims=keepdims), np.sum(x, axis=axis, keepdims=keepdims))
    assert_matches(kiln.prod(k, axis=axis, keepdims=keepdims), np.prod(x, axis=axis, keepdims=keepdims))
    if x.size and all(x.shape[a] for a in (axis if axis is not None else range(x.ndim))):
        assert_matches(kiln.max(k, axis=axis, keepdims=keepdims), np.max(x, axis=axis, keepdims=keepdims))


@SETTINGS
@given(shape=hnp.array_shapes(min_dims=1, max_dims=4, max_side=5), data=st.data())
def test_reshape_and_transpose_views(shape, data):
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    perm = data.draw(st.permutations(range(len(shape))))
    k = kiln.asarray(x)
    assert_matches(k.transpose(*perm), x.transpose(*perm))
    assert_matches(k.transpose(*perm).reshape(-1), x.transpose(*perm).reshape(-1))
    assert_matches(k[::-1].reshape(x.size), x[::-1].reshape(x.size))


def test_sizes_that_cannot_exist_raise():
    with pytest.raises(ValueError, match="too big"):
        kiln.empty((2**62, 4))
    with pytest.raises(MemoryError):
        kiln.zeros((10**7, 10**7))
    with pytest.raises(ValueError, match="negative"):
        kiln.broadcast_to(kiln.ones(1), (-1,))
    with pytest.raises((ValueError, MemoryError)):
        kiln.arange(0, 1e300, 1e-300)
    with pytest.raises((ValueError, MemoryError)):
        kiln.arange(-2**63, 2**63 - 1)


def test_extreme_slice_steps():
    x = np.arange(10)
    k = kiln.asarray(x)
    for s in (slice(None, None, -2**63), slice(None, None, 2**63 - 1), slice(-2**63, 2**63 - 1),
              slice(2**63 - 1, -2**63, -1)):
        assert_matches(k[s], x[s])
