"""The N-Ways pipeline: every way gives the same histogram as the serial
reference, on every device present; the command line end to end."""
import numpy as np
import pytest

import kiln
from kiln.rdf import cli, liquid, science, ways


@pytest.fixture(scope="module")
def configuration():
    rng = np.random.default_rng(7)
    box = np.array([21.0, 22.0, 23.0])  # edges differ: the minimum image is per axis
    x, y, z = (rng.uniform(0, edge, (3, 301)) for edge in box)
    # A row of atoms one bin width apart (distances on bin edges, give or take
    # an ulp) and pairs half a box apart: the cases where the optimised way's
    # multiplications must fall back to the lab's divisions.
    width = 21.0 / (2 * 500)
    x[0, :44] = np.concatenate([np.arange(40) * width, [0.5, 0.5 + 10.5, 3.0, 3.0 + 11.0]])
    y[0, :44] = z[0, :44] = 1.0
    return x, y, z, box


@pytest.mark.parametrize("way", [w for w in ways.WAYS if w != "serial"])
def test_every_way_matches_the_serial_reference(device, configuration, way):
    x, y, z, box = configuration
    if way == "cpp_api":  # hands the positions over in a DCD file, which holds float32
        x, y, z = (a.astype(np.float32).astype(np.float64) for a in (x, y, z))
    expected = science.histogram_reference(x, y, z, box, bins=500)
    positions = [kiln.asarray(a, device=device) for a in (x, y, z)]
    got = kiln.asnumpy(ways.WAYS[way](*positions, box, 500))
    np.testing.assert_array_equal(got, expected)
    r, g = science.rdf(got, 3, 301, box)
    s2 = science.pair_entropy(g, 301, box)
    assert s2 == science.pair_entropy(science.rdf(expected, 3, 301, box)[1], 301, box)


def test_cpp_api_refuses_positions_a_dcd_cannot_hold(configuration):
    x, y, z, box = configuration
    with pytest.raises(ValueError, match="float32"):
        ways.cpp_api(*(kiln.asarray(a) for a in (x, y, z)), box, 500)


def test_command_line_end_to_end(tmp_path, capsys):
    atoms, frames = 400, 2
    box = liquid.DEFAULT_BOX * (atoms / liquid.DEFAULT_ATOMS) ** (1 / 3)
    x, y, z, box = liquid.generate(atoms=atoms, frames=frames, box=box, seed=5)
    path = tmp_path / "in.dcd"
    kiln.io.write_dcd(path, x, y, z, box=np.full((frames, 3), box))
    out = tmp_path / "out"
    assert cli.main([str(path), "--device", "cpu", "--out", str(out), "--no-plot", "--bins", "200"]) == 0
    printed = capsys.readouterr().out
    assert "every way gives the same histogram" in printed and "s2 =" in printed
    lines = (out / "RDF.dat").read_text().splitlines()
    assert len(lines) == 200 and len(lines[0].split()) == 2
    assert (out / "Pair_entropy.dat").read_text().startswith("s2 value is ")
    with pytest.raises(ValueError, match="unknown ways"):
        cli.main([str(path), "--ways", "nope", "--out", str(out)])


def test_frames_split_over_devices_give_the_one_device_histogram(configuration):
    """multi_device: the frame blocks' histograms summed (by NCCL on GPUs) are
    the whole trajectory's; 'all' takes every GPU, or the CPU without one."""
    from kiln.rdf import multi_device

    x, y, z, box = configuration
    expected = science.histogram_reference(x, y, z, box, bins=500)
    assert multi_device.split_frames(5, 2) == [(0, 2), (2, 5)] or multi_device.split_frames(5, 2) == [(0, 3), (3, 5)]
    assert multi_device.split_frames(1, 3) == [(0, 1)]
    spellings = ["all", "cpu"] + (["cuda:0", ",".join(f"cuda:{i}" for i in range(kiln.cuda.device_count()))]
                                  if kiln.cuda.is_available() else [])
    for spec in spellings:
        placement = multi_device.Placement(x, y, z, multi_device.parse_devices(spec))
        for way in ("optimised", "raw_kernel", "array_ops"):
            np.testing.assert_array_equal(placement.histogram(ways.WAYS[way], box, 500), expected)
    with pytest.raises(ValueError, match="twice"):
        multi_device.parse_devices("cpu,cpu")
    with pytest.raises(ValueError, match="devices"):
        multi_device.parse_devices(",")


def test_command_line_on_several_devices(tmp_path, capsys):
    out = tmp_path / "out"
    assert cli.main(["--atoms", "300", "--frames", "3", "--devices", "all", "--out", str(out), "--no-plot",
                     "--ways", "optimised,serial"]) == 0
    printed = capsys.readouterr().out
    assert "3 frames of 300 atoms" in printed and "every way gives the same histogram" in printed


def test_frames_split_over_a_dask_cluster(tmp_path, capsys):
    """kiln-rdf --dask ADDRESS: the frame blocks' histograms from the
    cluster's workers sum to the whole trajectory's."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        out = tmp_path / "out"
        assert cli.main(["--atoms", "300", "--frames", "5", "--dask", cluster.scheduler_address, "--out", str(out),
                         "--no-plot", "--ways", "optimised,array_ops,serial"]) == 0
    printed = capsys.readouterr().out
    assert "5 frames of 300 atoms" in printed and "a Dask cluster (2 workers)" in printed
    assert "every way gives the same histogram" in printed
