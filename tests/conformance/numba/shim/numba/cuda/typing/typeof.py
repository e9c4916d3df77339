from kiln.cuda.types import typeof  # noqa: F401
