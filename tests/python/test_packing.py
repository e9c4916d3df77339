"""packbits, unpackbits and bitwise_count against NumPy, on every device."""
import numpy as np
import pytest

import kiln
from conftest import assert_matches


@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_packbits_and_unpackbits(device, bitorder):
    rng = np.random.default_rng(0)
    bits = rng.integers(0, 3, size=(3, 13)).astype(np.int16)  # nonzero counts as 1
    k = kiln.asarray(bits, device=device)
    for axis in (None, 0, 1, -1):
        packed = np.packbits(bits, axis=axis, bitorder=bitorder)
        assert_matches(kiln.packbits(k, axis=axis, bitorder=bitorder), packed)
        kp = kiln.asarray(packed, device=device)
        for count in (None, 5, -3, 40):
            if axis is not None and count == 40:
                continue
            assert_matches(kiln.unpackbits(kp, axis=axis, count=count, bitorder=bitorder),
                           np.unpackbits(packed, axis=axis, count=count, bitorder=bitorder))
    assert_matches(kiln.packbits(kiln.zeros(0, dtype="bool", device=device)), np.packbits(np.zeros(0, bool)))


def test_bad_input():
    with pytest.raises(TypeError, match="integer or boolean"):
        kiln.packbits(kiln.zeros(3))
    with pytest.raises(TypeError, match="unsigned byte"):
        kiln.unpackbits(kiln.zeros(3, dtype="int8"))
    with pytest.raises(ValueError, match="'little' or 'big'"):
        kiln.packbits(kiln.zeros(3, dtype="bool"), bitorder="ascendant")


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"])
def test_bitwise_count(device, dtype):
    info = np.iinfo(dtype)
    values = np.array([0, 1, info.max, info.max - 1, info.max // 2, info.min, info.min + 1], dtype=dtype)
    assert_matches(kiln.bitwise_count(kiln.asarray(values, device=device)), np.bitwise_count(values))
