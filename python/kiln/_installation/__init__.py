"""kiln's installation: its version, where its C++ side lives, its kernel
cache, its BLAS, show_config."""
