"""The N-Ways lab's science on cases small enough to work out by hand, and the
generated liquid's g(r)."""
import math

import numpy as np
import pytest

from kiln.rdf import liquid, science

BOX = np.array([10.0, 10.0, 10.0])


def test_histogram_by_hand():
    # Atoms A (1,1,1), B (4,1,1), C (9,1,1) in a 10 A box, 5 bins of 1 A, cut 5 A.
    x = np.array([[1.0, 4.0, 9.0]])
    y = z = np.ones((1, 3))
    hist = science.histogram_reference(x, y, z, BOX, bins=5)
    # Self pairs: bin 0, three of them. A-B: 3 A (bin 3), both orders. A-C: 8 A
    # folds to 2 A (bin 2). B-C: 5 A is not below the cut.
    np.testing.assert_array_equal(hist, [3, 0, 2, 2, 0])


def test_minimum_image_rounds_half_to_even():
    x = np.array([[0.0, 5.0]])  # 5 / 10 = 0.5 rounds to 0: the pair stays 5 A apart, not below the cut
    hist = science.histogram_reference(x, np.zeros((1, 2)), np.zeros((1, 2)), BOX, bins=5)
    np.testing.assert_array_equal(hist, [2, 0, 0, 0, 0])


def test_rdf_and_entropy_by_hand():
    hist = np.array([3, 0, 2, 2, 0])
    r, g = science.rdf(hist, frames=1, atoms=3, box=BOX)
    rho = 3 / 1000.0
    norm = 4 * math.pi * rho / 3
    np.testing.assert_allclose(r, [0.5, 1.5, 2.5, 3.5, 4.5])
    expected = [3 / 3 / (norm * 1), 0, 2 / 3 / (norm * (27 - 8)), 2 / 3 / (norm * (64 - 27)), 0]
    np.testing.assert_allclose(g, expected, rtol=1e-14)
    s2, s2bond = science.pair_entropy(g, atoms=3, box=BOX)
    # r = i: bins 0 and 1 lie below 2 A (g taken as 0); bin 4 has g = 0.
    terms = [1 * 0, 1 * 1]
    for i in (2, 3):
        gi = expected[i]
        terms.append((gi * math.log(gi) - gi + 1) * i * i)
    terms.append(1 * 16)
    assert s2 == pytest.approx(-2 * math.pi * rho * sum(terms), rel=1e-12)
    assert s2bond == pytest.approx(s2, rel=1e-12)


def test_entropy_thresholds_differ_between_s2_and_s2bond():
    g = np.zeros(2000)
    g[800] = 5e-6  # below s2's 1e-5 threshold, above s2bond's 1e-6
    s2, s2bond = science.pair_entropy(g, atoms=100, box=np.array([40.0] * 3))
    r, width, rho = 800 * 0.01, 0.01, 100 / 40.0 ** 3
    # Every other bin has g = 0, so contributes (0 - 0 + 1) dr r^2.
    others = sum(-2 * math.pi * rho * width * (i * width) ** 2 for i in range(2000) if i != 800)
    assert s2 == pytest.approx(others - 2 * math.pi * rho * width * r * r * (1 - 5e-6), rel=1e-12)
    assert s2bond == pytest.approx(
        others - 2 * math.pi * rho * width * r * r * (5e-6 * math.log(5e-6) - 5e-6 + 1), rel=1e-12)


def test_output_files_in_the_lab_format(tmp_path):
    r, g = np.array([0.5, 1.5]), np.array([0.0, 1.25])
    rdf_path, entropy_path = science.write_outputs(tmp_path, r, g, -1.5, -2.25)
    assert open(rdf_path).read() == "0.500000 0.000000\n1.500000 1.250000\n"
    assert open(entropy_path).read() == "s2 value is -1.500000\ns2bond value is -2.250000\n"


def test_generated_liquid_has_a_first_peak_that_decays_to_one():
    atoms = 1500
    box = liquid.DEFAULT_BOX * (atoms / liquid.DEFAULT_ATOMS) ** (1 / 3)  # the default density
    x, y, z, box = liquid.generate(atoms=atoms, frames=2, box=box, seed=3)
    assert x.shape == (2, atoms) and x.dtype == np.float32
    assert (x >= 0).all() and (x < box).all()
    again = liquid.generate(atoms=atoms, frames=2, box=box, seed=3)
    np.testing.assert_array_equal(x, again[0])  # deterministic for a seed
    edges = np.array([box] * 3)
    hist = science.histogram_reference(x, y, z, edges, bins=200)
    r, g = science.rdf(hist, frames=2, atoms=atoms, box=edges)
    core = 0.95 * box / math.ceil(atoms ** (1 / 3))
    assert g[(r > 0.5) & (r < core * 0.8)].max() < 0.05  # (almost) nothing inside the core
    assert g[r > 0.5].max() > 2  # the first peak
    assert 0.9 * core < r[np.argmax(g[1:]) + 1] < 1.2 * core
    assert abs(g[r > 0.7 * r.max()].mean() - 1) < 0.05  # decays to 1
