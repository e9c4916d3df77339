"""``kiln.cusolver`` (CuPy's ``cupyx.cusolver``): which of cuSOLVER's
routines kiln's linear algebra offers, by cuSOLVER's names, on every device
(on the CPU the same operations are LAPACK's)."""

# cuSOLVER's routines behind kiln.linalg: Cholesky, LU, QR, the symmetric
# eigensolver and the SVD, single and batched.
_OFFERED = {"potrf", "potrfBatched", "potrs", "potrsBatched", "getrf", "getrs", "geqrf", "orgqr", "syevd",
            "syevj", "syevjBatched", "gesvd", "gesvdj", "gesvdjBatched", "gesvdaBatched"}


def check_availability(name):
    """Whether kiln offers what cuSOLVER's routine ``name`` computes."""
    return name in _OFFERED
