"""What every construct is: a typing rule and a C++ rule (see __init__.py)."""


class Construct:
    """A call (or, for values, a name) a kernel may use."""

    def type(self, typer, node):
        """The node's type; may type its arguments with typer.expr."""
        raise NotImplementedError

    def emit(self, emitter, node):
        """The node's C++ expression; may emit its arguments with emitter.expr."""
        raise NotImplementedError

    def non_negative(self, typer, node):
        """Whether the value can be shown never to be negative (array indices
        that are skip Python's wraparound)."""
        return False


class NeverNegative(Construct):
    """A construct whose values are never negative."""

    def non_negative(self, typer, node):
        return True
