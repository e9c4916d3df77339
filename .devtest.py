import faulthandler, sys; faulthandler.enable()
import numpy as np, kiln
from kiln import _core
kiln.fusion.configure(cpu_min_size=0, wait_for_compile=True, contract_fma=False)
for dev in ["cpu", "cuda"]:
    a = kiln.array(np.linspace(-3, 3, 1000, dtype=np.float32), device=dev)
    print(dev, "made", flush=True)
    s = kiln.sin(a); print("sin pending", _core._fusion_is_pending(s), flush=True)
    print(_core._fusion_graph(s), flush=True)
    r = s * 2 + kiln.sqrt(kiln.abs(a))
    print("recorded", flush=True)
    print(_core._fusion_graph(r), flush=True)
    print(_core._fusion_source(r)[:80], flush=True)
    print(kiln.asnumpy(r)[:3], kiln.fusion.stats(), flush=True)
