"""Members of Python's Enum and IntEnum classes in kernels, as Numba has
them: a module-level member (``Color.red``, ``Color["red"]``) or a member
passed as an argument, compared with ``==``, ``!=``, ``is`` and ``is not``.
An IntEnum's member named at module level is its integer (it is an int);
passed as an argument it keeps its class, which ``is`` compares. In C++ a
member is its code (types.EnumMemberType.code)."""
import ast
import enum

from .. import types as T

IDENTITY = (ast.Is, ast.IsNot)


def member_of(typer, node):
    """The Enum member a name, an attribute or ``EnumClass[constant]``
    names at module level, or None."""
    if isinstance(node, ast.Subscript):
        cls = typer.global_value(node.value)
        if isinstance(cls, enum.EnumMeta):
            key = typer.constant(node.slice)
            try:
                return cls[key]
            except KeyError:
                typer.typing(node, f"{cls.__name__} has no member {key!r}")
        return None
    if isinstance(node, (ast.Name, ast.Attribute)):
        value = typer.global_value(node)
        return value if isinstance(value, enum.Enum) else None
    return None


def member_type(member):
    """An IntEnum member named at module level is an int64; an Enum member its class's type."""
    return T.INT64 if isinstance(member, int) else T.EnumMemberType(type(member))


def member_code(member):
    return f"{T.EnumMemberType.code(member)}LL"


def compares(typer, node, op, left, right):
    """Whether ``left op right`` compares Enum members (then checked here)."""
    if not (isinstance(left, T.EnumMemberType) or isinstance(right, T.EnumMemberType)):
        return False
    if not isinstance(op, (ast.Eq, ast.NotEq) + IDENTITY):
        typer.typing(node, "Enum members are compared with ==, !=, is and is not only")
    for t in (left, right):
        if not (isinstance(t, T.EnumMemberType) or T.is_int(t) or (T.is_scalar(t) and t.kind == "b")):
            typer.typing(node, f"an Enum member cannot be compared with a {t}")
    return True


def compare_code(op, left, right, a, b):
    """C++ of ``a op b`` where an operand is an Enum member: equal values
    within one class; across classes, IntEnum members (and ints) by value
    for == and !=, never for ``is``; other members of different classes are
    never equal."""
    same = isinstance(left, T.EnumMemberType) and left == right
    by_value = all(not isinstance(t, T.EnumMemberType) or t.is_int for t in (left, right))
    identity = isinstance(op, IDENTITY)
    if same or (by_value and not identity):
        equal = f"((long long)({a}) == (long long)({b}))"
    else:
        equal = "false"
    return f"(!{equal})" if isinstance(op, (ast.NotEq, ast.IsNot)) else equal
