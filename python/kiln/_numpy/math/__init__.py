"""Mathematical functions: the elementwise functions and ufuncs, calculus,
convolution, interpolation."""
