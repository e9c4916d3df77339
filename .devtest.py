import numpy as np, kiln
from kiln import _core
kiln.fusion.configure(cpu_min_size=0, wait_for_compile=True)
i = kiln.array(np.arange(-50, 50, dtype=np.int16), device="cuda")
f = kiln.array(np.linspace(0, 1, 100, dtype=np.float32), device="cuda")
def fn(i, f): return (i * 3 + 1) * f + (i > 0) - kiln.float64(0.5)
def fn2(i, f): return (i * 3 + 1) * f + (i > 0)
for g in (fn, fn2):
    r = g(i, f)
    src = _core._fusion_source(r)
    got = kiln.asnumpy(r)
    with kiln.fusion.disabled():
        plain = kiln.asnumpy(g(i, f))
    bad = np.nonzero(got != plain)[0]
    print(g.__name__, bad, got[bad], plain[bad])
print(src)
ptx = _core._cuda_ptx(src.replace("<kiln/device/fused.cuh>", "<kiln/device/fused.cuh>"), 90, [])
print([l for l in ptx.splitlines() if "fma" in l or "mul.f32" in l or "add.f32" in l][:10])
