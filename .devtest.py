import numpy as np, kiln, time
a = kiln.array(np.ones(1000, np.float32), device="cuda")
def chain(xp, a):
    t = a * 1.5
    t = xp.abs(t) - a
    t = t * t / 3.0
    t = xp.sqrt(t + 1.0)
    return xp.exp(-t) + a
def per(fn, n=1000):
    fn(); kiln.cuda.synchronize(); t=time.perf_counter()
    for _ in range(n): fn()
    kiln.cuda.synchronize()
    return (time.perf_counter()-t)/n*1e6
with kiln.fusion.configured(wait_for_compile=True):
    chain(kiln, a); kiln.fusion.flush()
s0 = kiln.fusion.stats()
print("record only", per(lambda: chain(kiln, a)))
print("one op record", per(lambda: a * 1.5))
print("record+flush", per(lambda: (chain(kiln, a), kiln.fusion.flush())))
print(s0, kiln.fusion.stats())
with kiln.fusion.disabled():
    print("eager chain", per(lambda: chain(kiln, a)))
    print("eager op", per(lambda: a * 1.5))
r = chain(kiln, a)
print(kiln.fusion.inspect(r)["graph"])
import cProfile, pstats
cProfile.run("for _ in range(300): chain(kiln, a); kiln.fusion.flush()", "/tmp/prof")
pstats.Stats("/tmp/prof").sort_stats("tottime").print_stats(8)
