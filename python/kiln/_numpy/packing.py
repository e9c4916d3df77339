"""NumPy's packbits and unpackbits: bits of uint8 bytes along an axis, most
significant first (bitorder "big") or least (bitorder "little"), built from
shifts, masks and sums on any device."""
from .. import _core
from .creation import asarray, zeros
from .manipulation.joining import concatenate
from .manipulation.shape import moveaxis


def _weights(bitorder, device):
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    shifts = [7, 6, 5, 4, 3, 2, 1, 0] if bitorder == "big" else [0, 1, 2, 3, 4, 5, 6, 7]
    return asarray(shifts, dtype="uint8", device=device)


def _zero_extended(bits, length):
    """``bits`` with zeros appended along its last axis up to ``length``."""
    missing = length - bits.shape[-1]
    if missing <= 0:
        return bits
    return concatenate([bits, zeros(bits.shape[:-1] + (missing,), dtype="uint8", device=bits.device)], axis=-1)


def packbits(a, /, axis=None, bitorder="big"):
    """The truth of each element of ``a`` (booleans or integers) as bits, 8 to
    a uint8 byte along ``axis`` (of the flattened ``a`` when None), the last
    byte padded with zeros."""
    a = asarray(a)
    if a.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    shifts = _weights(bitorder, a.device)
    x = a.reshape(-1) if axis is None else moveaxis(a, axis, -1)
    bits = _core.not_equal(x, 0).astype("uint8")
    bits = _zero_extended(bits, -(-bits.shape[-1] // 8) * 8)
    groups = bits.reshape(bits.shape[:-1] + (bits.shape[-1] // 8, 8))
    packed = _core.sum(_core.bitwise_left_shift(groups, shifts), -1, dtype="uint8")
    return packed if axis is None else moveaxis(packed, -1, axis)


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """The bits of the uint8 array ``a`` as a uint8 array of 0 and 1, 8 for
    each byte along ``axis`` (of the flattened ``a`` when None); ``count``
    keeps that many (padding with zeros past the end, or dropping -count
    from the end when negative)."""
    a = asarray(a)
    if a.dtype.name != "uint8":
        raise TypeError("Expected an input array of unsigned byte data type")
    shifts = _weights(bitorder, a.device)
    x = a.reshape(-1) if axis is None else moveaxis(a, axis, -1)
    bits = _core.bitwise_and(_core.bitwise_right_shift(x[..., None], shifts), 1)
    bits = bits.reshape(x.shape[:-1] + (x.shape[-1] * 8,))
    if count is not None:
        count = int(count)
        total = bits.shape[-1]
        keep = count if count >= 0 else max(total + count, 0)
        bits = _zero_extended(bits, keep)[..., :keep]
    return bits if axis is None else moveaxis(bits, -1, axis)
