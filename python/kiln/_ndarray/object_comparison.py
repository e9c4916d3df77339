"""``a == obj`` and ``a != obj`` where ``obj`` is neither an array nor a
number (None, Ellipsis, any other object): NumPy compares each element with
``obj`` as Python objects (its object loop) and returns a bool array, where
Python's fallback would give one ``False``/``True`` for the whole array.
kiln compares the same way on the host and returns the result on ``a``'s
device. It is called by the operators only for objects kiln cannot make an
operand of, so numbers and arrays never come here."""
import operator


def compare(a, other, equal):
    """The hook behind ``ndarray.__eq__``/``__ne__`` for such an object."""
    if getattr(type(other), "__array_ufunc__", False) is None:
        return NotImplemented  # the object asks arrays' operators to defer to it
    if isinstance(other, (list, tuple)):
        # A sequence of objects would broadcast element by element in NumPy;
        # kiln has no object arrays to broadcast it with.
        return NotImplemented
    from .._numpy.creation import array

    compare_one = operator.eq if equal else operator.ne
    # Each comparison's value is taken as a truth value, as NumPy's loop does.
    found = [bool(compare_one(x, other)) for x in a.ravel().tolist()]
    return array(found, dtype=bool, device=a.device).reshape(a.shape)
