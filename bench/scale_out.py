"""Scale-out rows (docs/scaling.md): an all-reduce of 1 GiB of float32
between two GPUs, one process each, through kiln.distributed, PyTorch's
torch.distributed and CuPy's cupyx.distributed (all on NCCL); the RDF
histogram (kiln-rdf's optimised way) on one GPU and split over all of them;
a Dask sum of a 4 GiB float32 array made on the GPUs by one worker per GPU.

    NCCL_NVLS_ENABLE=0 python bench/scale_out.py [--rows allreduce,rdf,dask]
"""
import argparse
import json
import multiprocessing
import os
import socket
import statistics
import sys
import time

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")  # NVLink multicast stays off on shared hosts
NBYTES = 1 << 30
REPEATS = 20


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _allreduce_rank(library, rank, n, port, results):
    try:
        count = NBYTES // 4
        if library == "kiln":
            import kiln
            import kiln.distributed as kd

            kiln.cuda.Device(rank).use()
            comm = kd.init_process_group(n, rank, port=port)
            a = kiln.ones(count, dtype="float32", device=f"cuda:{rank}")
            out = kiln.empty_like(a)
            step = lambda: comm.all_reduce(a, out)  # noqa: E731
            sync = kiln.cuda.Device(rank).synchronize
            check = lambda: float(out[0]) == n  # noqa: E731
        elif library == "cupy":
            import cupy
            from cupyx import distributed as cd

            # CuPy's store runs in a child process that it starts the default
            # way, which in a spawned rank is spawn, and its store can't be pickled.
            multiprocessing.set_start_method("fork", force=True)

            cupy.cuda.Device(rank).use()
            comm = cd.init_process_group(n, rank, port=port)
            a = cupy.ones(count, dtype=cupy.float32)
            out = cupy.empty_like(a)
            step = lambda: comm.all_reduce(a, out)  # noqa: E731
            sync = cupy.cuda.Device(rank).synchronize
            check = lambda: float(out[0]) == n  # noqa: E731
        else:
            import torch
            import torch.distributed as dist

            torch.cuda.set_device(rank)
            dist.init_process_group("nccl", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=n)
            a = torch.ones(count, dtype=torch.float32, device="cuda")
            out = a.clone()

            def step():
                out.copy_(a)  # torch reduces in place; the copy is timed apart and taken off
                dist.all_reduce(out)

            sync = torch.cuda.synchronize
            check = lambda: float(out[0]) == n  # noqa: E731
        for _ in range(3):
            step()
        sync()
        ok = check()
        times = []
        for _ in range(REPEATS):
            sync()
            start = time.perf_counter()
            step()
            sync()
            times.append(time.perf_counter() - start)
        extra = 0.0
        if library == "torch":  # the copy's own time
            copies = []
            for _ in range(REPEATS):
                sync()
                start = time.perf_counter()
                out.copy_(a)
                sync()
                copies.append(time.perf_counter() - start)
            extra = statistics.median(copies)
        results.put((rank, statistics.median(times) - extra, ok))
    except BaseException as e:  # reported, not hung
        results.put((rank, repr(e), False))


def allreduce_rows(n):
    rows = {}
    ctx = multiprocessing.get_context("spawn")
    for library in ("kiln", "torch", "cupy"):
        results = ctx.Queue()
        port = free_port()
        procs = [ctx.Process(target=_allreduce_rank, args=(library, r, n, port, results)) for r in range(n)]
        for p in procs:
            p.start()
        got = [results.get(timeout=300) for _ in range(n)]
        for p in procs:
            p.join(60)
        if any(isinstance(t, str) for _, t, _ in got):
            rows[library] = {"error": next(t for _, t, _ in got if isinstance(t, str))}
            print(f"all-reduce, {library}: {rows[library]['error']}", flush=True)
            continue
        seconds = max(t for _, t, _ in got)
        rows[library] = {"ms": seconds * 1e3, "bus_GBps": 2 * (n - 1) / n * NBYTES / seconds / 1e9,
                         "correct": all(ok for _, _, ok in got)}
        print(f"all-reduce 1 GiB float32, {n} GPUs, {library:5s}: {seconds * 1e3:8.2f} ms "
              f"{rows[library]['bus_GBps']:7.1f} GB/s bus", flush=True)
    return rows


def rdf_rows(atoms, frames):
    import numpy as np

    import kiln
    from kiln.rdf import multi_device, ways

    rng = np.random.default_rng(0)
    box = np.array([150.0, 150.0, 150.0])
    x, y, z = (rng.uniform(0, 150.0, (frames, atoms)) for _ in range(3))
    rows = {}
    n = kiln.cuda.device_count()
    for label, devices in (("1 GPU", "cuda:0"), (f"{n} GPUs", "all")):
        placement = multi_device.Placement(x, y, z, multi_device.parse_devices(devices))
        placement.histogram(ways.optimised, box, 2000, frames=1)
        times, result = [], None
        for _ in range(3):
            start = time.perf_counter()
            result = placement.histogram(ways.optimised, box, 2000)
            times.append(time.perf_counter() - start)
        rows[label] = {"s": min(times), "total": int(result.sum())}
        print(f"rdf {atoms} atoms x {frames} frames, {label}: {min(times):.3f} s", flush=True)
    rows["speedup"] = rows["1 GPU"]["s"] / rows[f"{n} GPUs"]["s"]
    rows["identical"] = rows["1 GPU"]["total"] == rows[f"{n} GPUs"]["total"]
    print(f"rdf speed-up on {n} GPUs: {rows['speedup']:.2f}x, identical totals: {rows['identical']}")
    return rows


def _gpu_chunk(block_info=None):
    import kiln

    shape = block_info[None]["chunk-shape"]
    return kiln.ones(shape, dtype="float32", device="cuda")


def dask_rows(gib=4):
    import dask.array as da
    from distributed import Client, Nanny, Scheduler, SpecCluster

    import kiln

    n = kiln.cuda.device_count()
    count = gib * (1 << 30) // 4
    chunk = 1 << 27  # 512 MiB chunks
    rows = {}
    for workers in sorted({1, n}):
        # One worker process per GPU, each seeing only its own (what dask-cuda's LocalCUDACluster does).
        spec = {i: {"cls": Nanny, "options": {"nthreads": 1, "env": {"CUDA_VISIBLE_DEVICES": str(i),
                                                                       "NCCL_NVLS_ENABLE": "0"}}}
                for i in range(workers)}
        with SpecCluster(workers=spec, scheduler={"cls": Scheduler, "options": {"dashboard_address": None}},
                         silence_logs=40) as cluster, Client(cluster) as client:
            x = da.map_blocks(_gpu_chunk, chunks=((chunk,) * (count // chunk),), dtype="float32",
                              meta=kiln.empty(0, dtype="float32", device="cpu"))
            x = x.persist()
            client.wait_for_workers(workers)
            from distributed import wait

            wait(x)
            times = []
            for _ in range(3):
                start = time.perf_counter()
                total = float(x.sum(dtype="float64").compute())
                times.append(time.perf_counter() - start)
            rows[f"{workers} workers"] = {"s": min(times), "sum": total, "correct": total == count}
            print(f"dask sum of {gib} GiB float32 on {workers} GPU workers: {min(times) * 1e3:.1f} ms "
                  f"(sum {total:.0f}, right: {total == count})", flush=True)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", default="allreduce,rdf,dask")
    ap.add_argument("--atoms", type=int, default=100_000)
    ap.add_argument("--frames", type=int, default=40)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "results",
                                                  "scale_out.json"))
    args = ap.parse_args()
    import kiln

    n = kiln.cuda.device_count()
    if n < 2:
        sys.exit("bench/scale_out.py needs two GPUs or more")
    result = {"device": kiln.cuda.Device(0).name, "gpus": n, "date": time.strftime("%Y-%m-%d")}
    wanted = args.rows.split(",")
    if "allreduce" in wanted:
        result["allreduce_1GiB"] = allreduce_rows(n)
    if "rdf" in wanted:
        result["rdf"] = rdf_rows(args.atoms, args.frames)
    if "dask" in wanted:
        result["dask_sum_4GiB"] = dask_rows()
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
