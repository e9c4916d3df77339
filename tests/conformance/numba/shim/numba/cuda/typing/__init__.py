from kiln.cuda.types import signature  # noqa: F401
