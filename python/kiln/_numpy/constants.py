"""NumPy's constants."""
e = 2.718281828459045
euler_gamma = 0.5772156649015329
pi = 3.141592653589793
inf = float("inf")
nan = float("nan")
newaxis = None
