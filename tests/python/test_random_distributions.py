"""kiln.random's distributions: Kolmogorov-Smirnov tests against SciPy's
distributions (continuous ones) or against NumPy's samplers (discrete ones,
two-sample), moments, shapes, broadcasting and bad parameters, on every
device. Seeds are fixed, so the p-values are reproducible, not flaky."""
import numpy as np
import pytest

import kiln

st = pytest.importorskip("scipy.stats")

N = 20000
P_MIN = 1e-3  # a correct sampler fails this one time in a thousand seeds; the seeds are fixed

CONTINUOUS = [
    ("standard_gamma", (2.5,), lambda: st.gamma(2.5)),
    ("standard_gamma", (0.4,), lambda: st.gamma(0.4)),
    ("gamma", (3.0, 2.0), lambda: st.gamma(3.0, scale=2.0)),
    ("beta", (2.0, 5.0), lambda: st.beta(2.0, 5.0)),
    ("chisquare", (4.0,), lambda: st.chi2(4.0)),
    ("f", (5.0, 7.0), lambda: st.f(5.0, 7.0)),
    ("standard_t", (5.0,), lambda: st.t(5.0)),
    ("standard_cauchy", (), lambda: st.cauchy()),
    ("lognormal", (0.5, 0.8), lambda: st.lognorm(0.8, scale=np.exp(0.5))),
    ("laplace", (1.0, 2.0), lambda: st.laplace(1.0, 2.0)),
    ("logistic", (1.0, 2.0), lambda: st.logistic(1.0, 2.0)),
    ("gumbel", (1.0, 2.0), lambda: st.gumbel_r(1.0, 2.0)),
    ("rayleigh", (2.0,), lambda: st.rayleigh(scale=2.0)),
    ("weibull", (1.5,), lambda: st.weibull_min(1.5)),
    ("pareto", (3.0,), lambda: st.lomax(3.0)),
    ("power", (3.0,), lambda: st.powerlaw(3.0)),
    ("triangular", (0.0, 1.0, 3.0), lambda: st.triang(1 / 3, scale=3.0)),
    ("wald", (1.0, 2.0), lambda: st.invgauss(0.5, scale=2.0)),
    ("noncentral_chisquare", (3.0, 2.0), lambda: st.ncx2(3.0, 2.0)),
    ("noncentral_chisquare", (0.5, 2.0), lambda: st.ncx2(0.5, 2.0)),
    ("noncentral_f", (5.0, 7.0, 2.0), lambda: st.ncf(5.0, 7.0, 2.0)),
]
DISCRETE = [
    ("poisson", (3.0,)), ("poisson", (60.0,)), ("binomial", (20, 0.3)), ("binomial", (1000, 0.4)),
    ("binomial", (50, 0.9)), ("negative_binomial", (5, 0.4)), ("geometric", (0.3,)), ("hypergeometric", (10, 5, 7)),
    ("logseries", (0.6,)), ("zipf", (2.5,)),
]


@pytest.mark.parametrize("name,args,dist", CONTINUOUS, ids=[f"{c[0]}{c[1]}" for c in CONTINUOUS])
def test_continuous_follow_scipy(device, name, args, dist):
    x = getattr(kiln.random.default_rng(11, device=device), name)(*args, size=N)
    assert x.device == device and x.shape == (N,) and x.dtype == kiln.float64
    assert st.kstest(x.get(), dist().cdf).pvalue > P_MIN


@pytest.mark.parametrize("name,args", DISCRETE, ids=[f"{c[0]}{c[1]}" for c in DISCRETE])
def test_discrete_follow_numpy(device, name, args):
    x = getattr(kiln.random.RandomState(5), name)(*args, size=N)
    assert x.dtype == kiln.int64
    reference = getattr(np.random.default_rng(1), name)(*args, size=10 * N)
    assert st.ks_2samp(x.get(), reference, method="asymp").pvalue > P_MIN
    if name != "zipf":  # zipf's variance is infinite for a <= 3
        assert abs(float(x.mean()) - reference.mean()) < 5 * reference.std() / np.sqrt(N)


def test_vonmises_follows_numpy(device):
    for kappa in (0.5, 4.0):
        x = kiln.random.default_rng(3, device=device).vonmises(0.5, kappa, size=N).get()
        reference = np.random.default_rng(0).vonmises(0.5, kappa, size=10 * N)
        assert st.ks_2samp(x, reference, method="asymp").pvalue > P_MIN
        assert -np.pi <= x.min() and x.max() <= np.pi


def test_same_numbers_on_every_device():
    draws = [kiln.random.default_rng(9, device=d).gamma(1.5, size=1000).get() for d in ("cpu",)]
    if kiln.cuda.is_available():
        draws.append(kiln.random.default_rng(9, device="cuda").gamma(1.5, size=1000).get())
    for other in draws[1:]:
        np.testing.assert_allclose(other, draws[0], rtol=1e-12)


def test_parameters_broadcast_with_size(device):
    rs = kiln.random.default_rng(1, device=device)
    assert rs.gamma(kiln.asarray([1.0, 2.0, 3.0], device=device), size=(4, 3)).shape == (4, 3)
    assert rs.binomial([5, 10], 0.5).shape == (2,)
    assert rs.normal(size=(2, 2)).shape == (2, 2)
    with pytest.raises(ValueError, match="size"):
        rs.gamma([1.0, 2.0, 3.0], size=(4, 2))


def test_multivariate_dirichlet_multinomial(device):
    rs = kiln.random.default_rng(2, device=device)
    cov = np.array([[1.0, 0.5], [0.5, 2.0]])
    x = rs.multivariate_normal([0.0, 1.0], cov, size=N).get()
    np.testing.assert_allclose(x.mean(0), [0.0, 1.0], atol=0.05)
    np.testing.assert_allclose(np.cov(x.T), cov, atol=0.08)
    d = rs.dirichlet([1.0, 2.0, 3.0], size=N).get()
    np.testing.assert_allclose(d.sum(1), 1.0)
    np.testing.assert_allclose(d.mean(0), [1 / 6, 2 / 6, 3 / 6], atol=0.01)
    m = rs.multinomial(10, [0.2, 0.3, 0.5], size=N).get()
    assert (m.sum(1) == 10).all()
    np.testing.assert_allclose(m.mean(0), [2.0, 3.0, 5.0], atol=0.06)


def test_bad_parameters_name_what_is_wrong():
    rs = kiln.random.RandomState(0)
    for call, message in [(lambda: rs.gamma(-1.0), "shape < 0"), (lambda: rs.binomial(10, 1.5), "p"),
                          (lambda: rs.poisson(-2.0), "lam < 0"), (lambda: rs.beta(0.0, 1.0), "a <= 0"),
                          (lambda: rs.zipf(1.0), "a <= 1"), (lambda: rs.multinomial(3, [0.9, 0.9, 0.1]), "pvals")]:
        with pytest.raises(ValueError, match=message):
            call()


def test_module_functions_draw_from_the_devices_random_state():
    kiln.random.seed(4)
    first = kiln.random.poisson(2.0, size=5)
    kiln.random.seed(4)
    np.testing.assert_array_equal(kiln.random.poisson(2.0, size=5).get(), first.get())
    before = kiln.random.get_random_state()
    kiln.random.reset_states()
    assert kiln.random.get_random_state() is not before
    seq = kiln.random.SeedSequence(5)
    assert kiln.random.Generator(kiln.random.Philox4x3210(seq)).random(3).shape == (3,)


@pytest.mark.parametrize("bit_generator", ["XORWOW", "MRG32k3a"])
def test_cupy_bit_generators(device, bit_generator):
    """CuPy's XORWOW and MRG32k3a: reproducible words, the same on every
    device, uniforms/normals/gammas that pass Kolmogorov-Smirnov tests, and
    NumPy's refusal of non-integer seeds."""
    kind = getattr(kiln.random, bit_generator)
    g = kiln.random.Generator(kind(7), device=device)
    u, z = g.random(N), g.standard_normal(N)
    assert u.device == device and u.dtype == kiln.float64
    assert st.kstest(u.get(), st.uniform().cdf).pvalue > P_MIN
    assert st.kstest(z.get(), st.norm().cdf).pvalue > P_MIN
    assert st.kstest(g.gamma(2.0, size=N).get(), st.gamma(2.0).cdf).pvalue > P_MIN
    assert st.kstest(g.random(N, dtype="float32").get(), st.uniform().cdf).pvalue > P_MIN
    on_device = kiln.random.Generator(kind(9), device=device).random(5000)
    on_cpu = kiln.random.Generator(kind(9), device="cpu").random(5000)
    np.testing.assert_array_equal(on_device.get(), on_cpu.get())
    assert (kind(3).random_raw(10) == kind(3).random_raw(10)).all()
    assert kind(3).random_raw(10).dtype == kiln.uint32
    with pytest.raises(TypeError, match="seed"):
        kind(1.5)
