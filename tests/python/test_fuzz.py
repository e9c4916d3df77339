"""A fixed-seed slice of the fuzz campaign (tests/fuzz/fuzz_calls.py; the
whole campaign is ``make fuzz``): wrong and awkward arguments to every public
function and method, each batch in a child process, give a return or an
exception NumPy would raise, never a crash or a hang."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fuzz"))
import fuzz_calls  # noqa: E402


@pytest.mark.parametrize("seed", [11, 12])
def test_a_fuzz_slice_has_no_crash_hang_or_unexpected_error(device, seed):
    counts, notable = fuzz_calls.campaign(600, seed, str(device))
    assert counts["crash"] == counts["hang"] == counts["other"] == 0, notable[:10]
    assert counts["clean"] > 0 and counts["return"] > 0
