"""The array type: kiln.ndarray's Python methods and protocols, its dtypes and devices."""
