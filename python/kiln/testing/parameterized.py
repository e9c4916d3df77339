"""Test classes run once per set of attributes (CuPy's ``parameterize``),
and the cartesian products tests build those sets with."""
import itertools
import sys
import types
import unittest


def product(parameter):
    """Every combination of a dict's value lists: {"a": [1, 2], "b": [3]} ->
    [{"a": 1, "b": 3}, {"a": 2, "b": 3}] (keys in sorted order)."""
    if not isinstance(parameter, dict):
        raise TypeError(f"parameter: expected a dict of lists, got {type(parameter).__name__}")
    keys = sorted(parameter)
    return [dict(zip(keys, values)) for values in itertools.product(*(parameter[k] for k in keys))]


def product_dict(*parameters):
    """Every combination of one dict from each list, merged into one dict."""
    return [{k: v for d in dicts for k, v in d.items()} for dicts in itertools.product(*parameters)]


def _shown(value, limit=100):
    text = value.__name__ if isinstance(getattr(value, "__name__", None), str) else repr(value)
    return text if len(text) <= limit else text[:limit // 2 - 2] + "..." + text[-(limit // 2 - 1):]


def _case_name(i, param):
    return f"_param_{i}_{{" + ", ".join(f"{k}={_shown(v)}" for k, v in sorted(param.items())) + "}"


def _attributes(param):
    """A parameter set as class attributes: a function stays a plain function
    (called without self), as the test wrote it."""
    return {k: staticmethod(v) if isinstance(v, types.FunctionType) else v for k, v in param.items()}


def parameterize(*params, _ids=True):
    """Runs every test of the decorated class once for each dict of `params`,
    the dict's entries set as attributes of the test's ``self``.

    A unittest.TestCase gets one subclass per set, named
    ``Name_param_<i>_{...}``, added to its module (the class itself is no
    longer collected); any other class is parametrized through pytest."""
    def decorate(cls):
        if issubclass(cls, unittest.TestCase):
            module = sys.modules[cls.__module__]
            for i, param in enumerate(params):
                name = cls.__name__ + _case_name(i, param)
                case = type(name, (cls,), {**_attributes(param), "__test__": True, "__module__": cls.__module__,
                                           "__qualname__": name})
                setattr(module, name, case)
            cls.__test__ = False
            return cls
        import pytest

        ids = [_case_name(i, p) if _ids else str(i) for i, p in enumerate(params)]

        @pytest.fixture(autouse=True)
        def _kiln_testing_parameters(self, _kiln_testing_param):
            for k, v in _attributes(_kiln_testing_param).items():
                setattr(self, k, v.__func__ if isinstance(v, staticmethod) else v)

        case = type(cls.__name__, (cls,), {"_kiln_testing_parameters": _kiln_testing_parameters,
                                           "__module__": cls.__module__, "__qualname__": cls.__qualname__})
        return pytest.mark.parametrize("_kiln_testing_param", list(params), ids=ids)(case)
    return decorate
