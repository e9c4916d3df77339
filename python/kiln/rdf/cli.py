"""kiln-rdf: the N-Ways lab's radial distribution function and pair entropy
of a molecular-dynamics trajectory, every way kiln offers.

    kiln-rdf                       # a generated liquid (6720 atoms, 10 frames)
    kiln-rdf alk.traj.dcd --frames 10 --device cpu --ways optimised,jit
    kiln-rdf --atoms 100000 --devices all --ways optimised   # every GPU, frames split
"""
import argparse

from . import pipeline, science, ways


def main(argv=None):
    parser = argparse.ArgumentParser(prog="kiln-rdf", description=__doc__.splitlines()[0])
    parser.add_argument("dcd", nargs="?", help="a CHARMM/NAMD DCD trajectory (default: a generated liquid)")
    parser.add_argument("--frames", type=int, help="analyse the first FRAMES frames (default: all)")
    parser.add_argument("--bins", type=int, default=science.BINS, help="histogram bins (default: 2000)")
    parser.add_argument("--device", help="cpu, cuda or cuda:N (default: the GPU if there is one)")
    parser.add_argument("--devices", help="split the frames over several devices: 'all' (every GPU) or a list "
                                          "such as cuda:0,cuda:1")
    parser.add_argument("--dask", metavar="SCHEDULER", help="split the frames over the workers of a Dask cluster: "
                                                          "its scheduler's address, or 'local' (one started here)")
    parser.add_argument("--ways", default=",".join(ways.WAYS),
                        help=f"comma-separated, from {', '.join(ways.WAYS)} (default: all)")
    parser.add_argument("--out", default="rdf-output", help="directory for the outputs (default: rdf-output)")
    parser.add_argument("--atoms", type=int, default=6720, help="atoms of the generated liquid (default: 6720)")
    parser.add_argument("--no-plot", action="store_true", help="skip RDF.png")
    args = parser.parse_args(argv)
    result = pipeline.run(dcd=args.dcd, frames=args.frames, bins=args.bins, device=args.device,
                          way_names=[w.strip() for w in args.ways.split(",") if w.strip()], out_dir=args.out,
                          atoms=args.atoms, plot=not args.no_plot, devices=args.devices,
                          dask=args.dask)
    print(f"\n{result['frames']} frames of {result['atoms']} atoms from {result['trajectory']}, "
          f"box {result['box'][0]:.3f} A, on {result['device']}")
    print(f"{'way':12s}{'seconds':>12s}")
    for name, seconds in result["seconds"].items():
        print(f"{name:12s}{seconds:12.4f}")
    print("every way gives the same histogram" if result["agree"]
          else f"these ways disagree with {next(iter(result['seconds']))}: {', '.join(result['disagree'])}")
    print(f"s2 = {result['s2']:.6f}   s2bond = {result['s2bond']:.6f}")
    print("wrote " + ", ".join(result["files"]))
    return 0 if result["agree"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
