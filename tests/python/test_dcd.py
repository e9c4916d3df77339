"""DCD trajectories: round trips, headers of every shape, and files that are
truncated or malformed (a clear ValueError, never a crash or a wrong read)."""
import struct

import numpy as np
import pytest

import kiln


def frames(count=4, atoms=7, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.uniform(-30, 30, (count, atoms)).astype(np.float32) for _ in range(3)]


@pytest.mark.parametrize("titles", [[], ["one title"], ["first", "x" * 80, "third"]])
@pytest.mark.parametrize("with_cell", [False, True])
def test_round_trip(tmp_path, titles, with_cell):
    x, y, z = frames()
    box = np.array([[61.0, 62.0, 63.0]] * 4) + np.arange(4)[:, None] if with_cell else None
    path = tmp_path / "t.dcd"
    kiln.io.write_dcd(path, x, y, z, box=box, titles=titles, timestep=0.5)
    traj = kiln.io.DCD(path)
    assert (traj.frames, traj.atoms, traj.titles, traj.has_unit_cell) == (4, 7, titles, with_cell)
    assert traj.timestep == 0.5 and len(traj) == 4
    rx, ry, rz, rbox = traj.read()
    for got, want in ((rx, x), (ry, y), (rz, z)):
        assert got.dtype == kiln.float32 and got.device == kiln.cpu
        np.testing.assert_array_equal(got.get(), want)
    np.testing.assert_array_equal(rbox.get(), box if with_cell else np.zeros((4, 3)))
    # Any range, read without the rest.
    mx, _, _, mbox = traj.read(1, 2)
    np.testing.assert_array_equal(mx.get(), x[1:3])
    assert traj.read(4, 0)[0].shape == (0, 7)
    with pytest.raises(IndexError, match="out of range"):
        traj.read(3, 2)


def test_writes_any_real_dtype_and_layout(tmp_path):
    x, y, z = frames()
    path = tmp_path / "t.dcd"
    kiln.io.write_dcd(path, x.astype(np.float64), kiln.asarray(y)[:, ::1], z.T.copy().T, titles=["t"])
    np.testing.assert_array_equal(kiln.io.DCD(path).read()[0].get(), x)
    with pytest.raises(ValueError, match="one shape"):
        kiln.io.write_dcd(path, x, y[:2], z)
    with pytest.raises(ValueError, match="longer than 80"):
        kiln.io.write_dcd(path, x, y, z, titles=["y" * 81])
    with pytest.raises(ValueError, match=r"\(frames, 3\)"):
        kiln.io.write_dcd(path, x, y, z, box=np.ones((4, 2)))


def _good_file(tmp_path, with_cell=True):
    x, y, z = frames()
    path = tmp_path / "good.dcd"
    kiln.io.write_dcd(path, x, y, z, box=np.full((4, 3), 10.0) if with_cell else None, titles=["a", "b"])
    return path.read_bytes()


def _check_refused(tmp_path, data, match):
    path = tmp_path / "bad.dcd"
    path.write_bytes(data)
    with pytest.raises(ValueError, match=match):
        kiln.io.DCD(path).read()


def test_truncated_files(tmp_path):
    data = _good_file(tmp_path)
    header = 4 + 84 + 4 + 4 + 4 + 160 + 4 + 4 + 4 + 4
    for cut in (0, 3, 50, 100, header - 2, header + 1, len(data) - 1, len(data) - 100):
        _check_refused(tmp_path, data[:cut], "truncated|too short|malformed")


def test_malformed_files(tmp_path):
    data = bytearray(_good_file(tmp_path))
    _check_refused(tmp_path, b"\x00\x00\x00\x54" + bytes(data[4:]), "big-endian")
    _check_refused(tmp_path, bytes(data[:4]) + b"VELD" + bytes(data[8:]), "CORD")
    fixed = bytearray(data)
    fixed[8 + 32:8 + 36] = struct.pack("<i", 3)  # NAMNF
    _check_refused(tmp_path, bytes(fixed), "fixed atoms")
    four_d = bytearray(data)
    four_d[8 + 44:8 + 48] = struct.pack("<i", 1)
    _check_refused(tmp_path, bytes(four_d), "4D")
    bad_marker = bytearray(data)
    bad_marker[0:4] = struct.pack("<i", 80)
    _check_refused(tmp_path, bytes(bad_marker), "header record")
    titles = bytearray(data)
    titles[96:100] = struct.pack("<i", 5)  # five titles cannot fit two lines' bytes
    _check_refused(tmp_path, bytes(titles), "title lines")
    frame = bytearray(data)
    cell_at = 4 + 84 + 4 + 4 + 4 + 160 + 4 + 4 + 4 + 4
    frame[cell_at:cell_at + 4] = struct.pack("<i", 44)  # the first unit cell record's marker
    _check_refused(tmp_path, bytes(frame), "frame 0 unit cell")
    with pytest.raises(ValueError, match="cannot open"):
        kiln.io.DCD(tmp_path / "missing.dcd")


def test_header_count_behind_the_frames(tmp_path):
    """A writer that appended frames without updating NSET: the file's frames count."""
    data = bytearray(_good_file(tmp_path, with_cell=False))
    data[8:12] = struct.pack("<i", 2)
    path = tmp_path / "appended.dcd"
    path.write_bytes(bytes(data))
    assert kiln.io.DCD(path).frames == 4
