"""kiln.random: Philox streams that give the same numbers on every device,
NumPy's Generator and legacy interfaces, and the distributions' statistics."""
import numpy as np
import pytest

import kiln

KAT_ZERO = [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]  # Philox4x32-10, counter 0, key 0 (Random123)


def test_seed_zero_block_zero_is_the_known_answer(device):
    out = kiln.empty(4, dtype="uint32", device=device)
    kiln._core._fill_random(out, 0, 0, 0)
    assert kiln.asnumpy(out).tolist() == KAT_ZERO


@pytest.mark.parametrize("draw", ["random32", "random64", "integers", "normal64", "normal32", "exponential"])
def test_same_seed_same_numbers_on_every_device(draw):
    devices = ["cpu"] + (["cuda"] if kiln.cuda.is_available() else [])
    results = []
    for device in devices:
        g = kiln.random.default_rng(1234, device=device)
        values = {"random32": lambda: g.random(1001, dtype="float32"), "random64": lambda: g.random((7, 9)),
                  "integers": lambda: g.integers(-50, 50, 999), "normal64": lambda: g.standard_normal(1001),
                  "normal32": lambda: g.standard_normal(1001, dtype="float32"),
                  "exponential": lambda: g.exponential(2.0, 64)}[draw]()
        assert values.device == kiln.Device(device)
        results.append(kiln.asnumpy(values))
    for other in results[1:]:
        if draw in ("normal64", "exponential"):  # the platforms' log/sin/cos differ by an ulp or so
            np.testing.assert_allclose(other, results[0], rtol=1e-13, atol=1e-12)
        else:
            np.testing.assert_array_equal(other, results[0])


def test_float32_normals_are_box_muller_within_four_ulps(device):
    # Block b's words (w0, w1, w2, w3) give the normals of the pairs (w0, w1)
    # and (w2, w3): radius sqrt(-2 ln u), u = ((w >> 8) | 1) / 2^24, and angle
    # 2 pi (w >> 8) / 2^24, here in float64 against kiln's float32 polynomials.
    n = 1 << 18
    words = kiln.empty(n, dtype="uint32", device=device)
    kiln._core._fill_random(words, 0, 0x5EED, 11)
    z = kiln.empty(n, dtype="float32", device=device)
    kiln._core._fill_random(z, 2, 0x5EED, 11)
    w = kiln.asnumpy(words).astype(np.uint64)
    radius = np.sqrt(-2 * np.log(((w[0::2] >> 8) | 1) / 2.0**24))
    angle = 2 * np.pi * (w[1::2] >> 8) / 2.0**24
    expected = np.empty(n)
    expected[0::2], expected[1::2] = radius * np.cos(angle), radius * np.sin(angle)
    ulps = np.abs(kiln.asnumpy(z) - expected) / np.spacing(np.abs(expected).astype(np.float32))
    assert ulps[np.abs(expected) > 1e-3].max() <= 4.0


def test_draws_continue_the_stream(device):
    a = kiln.random.default_rng(7, device=device)
    first, second = a.random(8), a.random(8)
    both = kiln.random.default_rng(7, device=device).random(16)
    np.testing.assert_array_equal(np.concatenate([kiln.asnumpy(first), kiln.asnumpy(second)]), kiln.asnumpy(both))
    assert not np.array_equal(kiln.asnumpy(kiln.random.default_rng(8, device=device).random(8)), kiln.asnumpy(first))


def test_distributions_have_their_moments(device):
    g = kiln.random.default_rng(42, device=device)
    n = 400_000
    u = kiln.asnumpy(g.random(n))
    assert u.min() >= 0.0 and u.max() < 1.0 and abs(u.mean() - 0.5) < 3e-3 and abs(u.var() - 1 / 12) < 2e-3
    z = kiln.asnumpy(g.normal(2.0, 3.0, n))
    assert abs(z.mean() - 2.0) < 0.03 and abs(z.std() - 3.0) < 0.03
    z32 = kiln.asnumpy(g.standard_normal(n, dtype="float32"))
    assert z32.dtype == np.float32 and abs(z32.mean()) < 0.01 and abs(z32.std() - 1.0) < 0.01
    e = kiln.asnumpy(g.exponential(0.5, n))
    assert e.min() >= 0 and abs(e.mean() - 0.5) < 0.01
    v = kiln.asnumpy(g.uniform(-3.0, 5.0, n))
    assert v.min() >= -3.0 and v.max() < 5.0 and abs(v.mean() - 1.0) < 0.03
    k = kiln.asnumpy(g.integers(3, 13, n))
    assert k.dtype == np.int64 and k.min() == 3 and k.max() == 12
    np.testing.assert_allclose(np.bincount(k - 3) / n, 0.1, atol=3e-3)
    assert kiln.asnumpy(g.integers(5, 6, 10, endpoint=True)).max() == 6
    b = kiln.asnumpy(g.integers(0, 2**64 - 1, 1000, dtype="uint64"))
    assert b.dtype == np.uint64 and b.max() > 2**63


def test_legacy_functions_and_random_state(device):
    saved = kiln._ndarray.device._default_kind
    kiln._ndarray.device._default_kind = device
    try:
        kiln.random.seed(5)
        a = kiln.random.rand(3, 4)
        kiln.random.seed(5)
        np.testing.assert_array_equal(kiln.asnumpy(kiln.random.random_sample((3, 4))), kiln.asnumpy(a))
        assert a.shape == (3, 4) and a.device == device
        assert kiln.random.randn(2, 5).shape == (2, 5)
        r = kiln.asnumpy(kiln.random.randint(2, 9, size=1000))
        assert r.min() >= 2 and r.max() <= 8
        assert kiln.random.uniform(size=3).shape == (3,) and kiln.random.normal(size=(2,)).shape == (2,)
        assert kiln.random.standard_normal(4).shape == (4,) and kiln.random.exponential(size=2).shape == (2,)
        rs = kiln.random.RandomState(9)
        x = rs.randn(6)
        np.testing.assert_array_equal(kiln.asnumpy(kiln.random.RandomState(9).standard_normal(6)), kiln.asnumpy(x))
        assert kiln.random.random().shape == ()
    finally:
        kiln._ndarray.device._default_kind = saved


def test_bad_arguments_raise():
    g = kiln.random.default_rng(0)
    with pytest.raises(ValueError, match="high <= low"):
        g.integers(5, 5)
    with pytest.raises(ValueError, match="does not fit"):
        g.integers(0, 300, dtype="uint8")
    with pytest.raises(TypeError, match="integer type"):
        g.integers(0, 3, dtype="float32")
    with pytest.raises(TypeError, match="float32 or float64"):
        g.random(3, dtype="int32")
    with pytest.raises(ValueError, match="scale"):
        g.normal(0, -1.0, 3)
    with pytest.raises(ValueError, match="non-negative"):
        kiln.random.default_rng(-1)
    out = kiln.empty((4, 4))[:, ::2]
    with pytest.raises(ValueError, match="C-contiguous"):
        g.random(out=out)


def test_choice_with_replacement(device):
    g = kiln.random.default_rng(3, device=device)
    k = kiln.asnumpy(g.choice(5, size=1000))
    assert k.min() == 0 and k.max() == 4
    pool = kiln.asarray(np.array([2.5, -1.0, 7.0]), device=device)
    picked = kiln.asnumpy(g.choice(pool, size=(4, 50)))
    assert picked.shape == (4, 50) and set(np.unique(picked)) <= {2.5, -1.0, 7.0}
    rows = kiln.asnumpy(g.choice(kiln.asarray(np.arange(12).reshape(3, 4), device=device), size=6, axis=1))
    assert rows.shape == (3, 6) and (rows % 4 == rows[0:1] % 4).all()
    with pytest.raises(ValueError, match="positive"):
        g.choice(0, 3)


def test_choice_without_replacement_and_weighted(device):
    g = kiln.random.default_rng(11, device=device)
    picks = kiln.asnumpy(g.choice(50, size=(5, 10), replace=False))
    assert picks.shape == (5, 10) and sorted(picks.reshape(-1).tolist()) == list(range(50))
    pool = kiln.asarray(np.arange(20.0) * 3, device=device)
    drawn = kiln.asnumpy(g.choice(pool, size=7, replace=False))
    assert len(set(drawn.tolist())) == 7 and set(drawn.tolist()) <= set((np.arange(20.0) * 3).tolist())
    p = np.array([0.5, 0.0, 0.2, 0.3])
    counts = np.bincount(kiln.asnumpy(g.choice(4, size=40_000, p=p)), minlength=4)
    assert counts[1] == 0
    np.testing.assert_allclose(counts / 40_000, p, atol=0.015)
    firsts = np.bincount([int(kiln.asnumpy(g.choice(4, size=3, replace=False, p=p))[0]) for _ in range(400)],
                         minlength=4)
    assert firsts[1] == 0 and firsts[0] > firsts[2]  # the first draw follows p
    assert sorted(kiln.asnumpy(g.choice(4, size=3, replace=False, p=p)).tolist()) == [0, 2, 3]
    with pytest.raises(ValueError, match="larger sample"):
        g.choice(3, 4, replace=False)
    with pytest.raises(ValueError, match="sum to 1"):
        g.choice(3, 2, p=[0.5, 0.2, 0.2])
    with pytest.raises(ValueError, match="non-negative"):
        g.choice(3, 2, p=[1.5, -0.5, 0.0])
    with pytest.raises(ValueError, match="1-dimensional"):
        g.choice(3, 2, p=[0.5, 0.5])
    with pytest.raises(ValueError, match="non-zero"):
        g.choice(4, 4, replace=False, p=p)


def test_permutation_and_shuffle(device):
    orders = [kiln.asnumpy(kiln.random.default_rng(5, device=d).permutation(1000))
              for d in ["cpu"] + (["cuda"] if kiln.cuda.is_available() else [])]
    assert sorted(orders[0].tolist()) == list(range(1000)) and (orders[0] != np.arange(1000)).any()
    for other in orders[1:]:
        np.testing.assert_array_equal(other, orders[0])  # the same on every device
    g = kiln.random.default_rng(6, device=device)
    x = np.arange(24).reshape(4, 6)
    cols = kiln.asnumpy(g.permutation(kiln.asarray(x, device=device), axis=1))
    assert sorted(cols[0].tolist()) == list(range(6)) and (cols - cols[0] == np.arange(0, 24, 6)[:, None]).all()
    k = kiln.asarray(x, device=device)
    g.shuffle(k)
    rows = kiln.asnumpy(k)
    assert sorted(rows[:, 0].tolist()) == [0, 6, 12, 18] and (rows - rows[:, :1] == np.arange(6)).all()
    assert kiln.random.permutation(5).shape == (5,)
    with pytest.raises(IndexError, match="at least 1-dimensional"):
        g.permutation(kiln.asarray(3.0, device=device))
    with pytest.raises(TypeError, match="kiln.ndarray"):
        g.shuffle([1, 2, 3])
