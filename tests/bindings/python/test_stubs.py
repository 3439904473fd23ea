"""The stubs of the private module, payback/_core/*.pyi (one per submodule, as boost-histogram
ships its _core's), against the built module: every submodule has its stub and every stub its
submodule, and every function's, method's and property's parameters (names, order, defaults) and
types are those pybind11 writes into the docstrings. mypy's stubtest (``./dev typecheck``) checks
the rest, but it cannot see these: a pybind11 function has no signature that ``inspect`` reads.

pybind11's types are what it converts from: ``typing.SupportsInt | typing.SupportsIndex`` is the
stub's ``int``, ``collections.abc.Sequence[...]`` its ``Sequence[...]``, and a bare ``dict``,
``list`` or ``tuple`` (a py::dict, py::list or py::tuple in C++) matches any ``dict[...]``,
``list[...]``, ``tuple[...]`` or TypedDict of the stub. An unnamed argument (pybind11's ``arg0``)
is positional-only in the stub."""

from __future__ import annotations

import ast
import importlib
import re
import types
import typing
from collections.abc import Iterator
from pathlib import Path

import pytest

from payback import _core

STUBS = Path(_core.__file__).with_name("_core")
BARE = {"dict", "list", "tuple"}
# The package's modules that the stubs take their TypedDicts and aliases from (``from ..results import``);
# by import_module, since the attribute payback.scenario is the function payback.scenario().
PACKAGE_MODULES = {name: importlib.import_module(f"payback.{name}") for name in ("data", "results", "scenario")}


def _module_name(stub: Path) -> str:
    return "payback._core" if stub.stem == "__init__" else f"payback._core.{stub.stem}"


def _stubs() -> dict[str, ast.Module]:
    """Every stub by the module it stands for: payback._core (__init__.pyi) and its submodules."""
    return {_module_name(p): ast.parse(p.read_text(encoding="utf-8")) for p in sorted(STUBS.glob("*.pyi"))}


def _stub_names(stub: ast.Module) -> dict[str, ast.expr]:
    """What a name in a stub stands for: its own aliases (``_Axis = tuple[...]``) and the types it
    imports from the package (a TypedDict is a ``dict``). The classes it imports from its sibling
    stubs keep their names, as the docstrings' do once their module is left out."""
    names: dict[str, ast.expr] = {}
    for node in stub.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            names[node.targets[0].id] = node.value
        elif isinstance(node, ast.ImportFrom) and node.level == 2:
            assert node.module in PACKAGE_MODULES, f"a stub imports from payback.{node.module}"
            module = PACKAGE_MODULES[node.module]
            for alias in node.names:
                value = getattr(module, alias.name)
                if typing.is_typeddict(value):
                    names[alias.name] = ast.Name("dict")
                else:  # an alias such as dict[str, ...]
                    names[alias.name] = ast.parse(repr(value), mode="eval").body
    return names


def _pybind11_signature(doc: str, name: str) -> ast.FunctionDef:
    """The first line of a pybind11 docstring, ``name(a: T, ...) -> R``, as a function definition
    in the stub's terms."""
    line = doc.strip().splitlines()[0]
    if not line.startswith(name + "("):  # a property's getter: "(self: X) -> R"
        line = name + line
    line = line.replace("typing.SupportsInt | typing.SupportsIndex", "int")
    line = line.replace("typing.SupportsFloat | typing.SupportsIndex", "float")
    line = line.replace("collections.abc.", "")
    line = re.sub(r"\bpayback\._core\.(\w+\.)?", "", line)  # payback._core.scenario.Scenario is Scenario
    # A class bound after the function that takes it shows as its C++ name (payback::SamplePlan).
    line = re.sub(r"\bpayback::", "", line)
    definition = ast.parse(f"def {line}: ...").body[0]
    assert isinstance(definition, ast.FunctionDef)
    return definition


def _expand(node: ast.expr, names: dict[str, ast.expr]) -> ast.expr:
    class Expand(ast.NodeTransformer):
        def visit_Name(self, name: ast.Name) -> ast.AST:
            return self.visit(names[name.id]) if name.id in names else name

    return Expand().visit(ast.parse(ast.unparse(node), mode="eval").body)


def _same_type(runtime: ast.expr, stub: ast.expr) -> bool:
    if isinstance(runtime, ast.Name) and runtime.id in BARE:
        head = stub.value if isinstance(stub, ast.Subscript) else stub
        return isinstance(head, ast.Name) and head.id == runtime.id
    if type(runtime) is not type(stub):
        return False
    if isinstance(runtime, ast.Name):
        return runtime.id == stub.id
    if isinstance(runtime, ast.Constant):
        return runtime.value == stub.value
    if isinstance(runtime, ast.BinOp):
        return _same_type(runtime.left, stub.left) and _same_type(runtime.right, stub.right)
    if isinstance(runtime, ast.Subscript):
        return _same_type(runtime.value, stub.value) and _same_type(runtime.slice, stub.slice)
    if isinstance(runtime, ast.Tuple):
        return len(runtime.elts) == len(stub.elts) and all(map(_same_type, runtime.elts, stub.elts))
    return ast.dump(runtime) == ast.dump(stub)


def _parameters(f: ast.FunctionDef) -> list[tuple[ast.arg, ast.expr | None, bool]]:
    """(parameter, default, positional-only) in order."""
    args = f.args
    every = args.posonlyargs + args.args
    defaults: list[ast.expr | None] = [None] * (len(every) - len(args.defaults)) + list(args.defaults)
    positional_only = [True] * len(args.posonlyargs) + [False] * len(args.args)
    out = list(zip(every, defaults, positional_only))
    assert not args.vararg and not args.kwonlyargs and not args.kwarg, f"{f.name}: *args, keyword-only or **kwargs"
    return out


def _mismatches(runtime: ast.FunctionDef, stub: ast.FunctionDef, method: bool,
                names: dict[str, ast.expr]) -> Iterator[str]:
    got, want = _parameters(stub), _parameters(runtime)
    if method:  # self: unannotated in the stub, arg0 in a property's getter
        got, want = got[1:], want[1:]
    if len(got) != len(want):
        yield f"{len(got)} parameters in the stub, {len(want)} in the module"
        return
    for (s, s_default, s_positional), (r, r_default, _) in zip(got, want):
        if re.fullmatch(r"arg\d+", r.arg):
            if not s_positional:
                yield f"{s.arg}: positional-only in the module (unnamed), not in the stub"
        elif s.arg != r.arg:
            yield f"parameter {s.arg!r} in the stub, {r.arg!r} in the module"
        if (s_default is None) != (r_default is None) or (
            s_default is not None and r_default is not None
            and ast.literal_eval(s_default) != ast.literal_eval(r_default)
        ):
            yield f"{r.arg}: default {ast.unparse(s_default) if s_default else None} in the stub, " \
                  f"{ast.unparse(r_default) if r_default else None} in the module"
        assert r.annotation is not None and s.annotation is not None, f"{r.arg}: no type"
        if not _same_type(r.annotation, _expand(s.annotation, names)):
            yield f"{r.arg}: {ast.unparse(s.annotation)} in the stub, {ast.unparse(r.annotation)} in the module"
    assert runtime.returns is not None and stub.returns is not None
    if not _same_type(runtime.returns, _expand(stub.returns, names)):
        yield f"returns {ast.unparse(stub.returns)} in the stub, {ast.unparse(runtime.returns)} in the module"


def _stub_functions() -> Iterator[tuple[str, ast.FunctionDef, object, bool, dict[str, ast.expr]]]:
    """(qualified name, the stub's definition, the runtime object, is a method, the stub's names) for
    each function, method and property of every stub, less constructors (no constructor is bound)."""
    for module_name, stub in _stubs().items():
        module = importlib.import_module(module_name)
        names = _stub_names(stub)
        for node in stub.body:
            if isinstance(node, ast.FunctionDef):
                yield f"{module_name}.{node.name}", node, getattr(module, node.name, None), False, names
            elif isinstance(node, ast.ClassDef) and hasattr(module, node.name):
                cls = getattr(module, node.name)
                for member in node.body:
                    if isinstance(member, ast.FunctionDef) and member.name != "__init__":
                        is_static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in member.decorator_list)
                        yield (f"{module_name}.{node.name}.{member.name}", member, getattr(cls, member.name, None),
                               not is_static, names)


STUB_FUNCTIONS = list(_stub_functions())


@pytest.mark.parametrize(("name", "stub", "runtime", "method", "names"), STUB_FUNCTIONS,
                         ids=[f[0] for f in STUB_FUNCTIONS])
def test_stub_signature_matches_the_module(name: str, stub: ast.FunctionDef, runtime: object, method: bool,
                                           names: dict[str, ast.expr]) -> None:
    assert runtime is not None, f"{name} is in the stub, not in the module"
    doc = runtime.fget.__doc__ if isinstance(runtime, property) else runtime.__doc__
    assert doc, f"{name}: no pybind11 signature"
    problems = list(_mismatches(_pybind11_signature(doc, stub.name), stub, method, names))
    assert not problems, f"{name}: " + "; ".join(problems)


def _submodules(module: types.ModuleType) -> dict[str, types.ModuleType]:
    return {name: value for name, value in vars(module).items() if isinstance(value, types.ModuleType)}


def test_every_submodule_has_a_stub_and_is_imported_by_its_name() -> None:
    submodules = _submodules(_core)
    assert sorted(submodules) == ["market", "model", "scenario", "whatif", "workload"]
    assert sorted(_stubs()) == sorted(["payback._core", *(f"payback._core.{name}" for name in submodules)])
    for name, module in submodules.items():
        assert module.__name__ == f"payback._core.{name}"
        # ``import payback._core.whatif`` (and pickle, and stubtest) find it as the attribute.
        assert importlib.import_module(f"payback._core.{name}") is module
        assert not _submodules(module), f"payback._core.{name} has submodules of its own"
    # The stub of payback._core names each submodule.
    imported = {a.name for node in _stubs()["payback._core"].body if isinstance(node, ast.ImportFrom)
                and node.level == 1 and node.module is None for a in node.names}
    assert imported == set(submodules)


@pytest.mark.parametrize("module_name", sorted(_stubs()))
def test_every_function_and_member_of_the_module_has_a_stub(module_name: str) -> None:
    module = importlib.import_module(module_name)
    stubbed = {f[0] for f in STUB_FUNCTIONS}
    # A read-write field (pybind11's def_readwrite) is stubbed as an annotated attribute, whose type
    # stubtest checks against the module.
    stubbed |= {f"{module_name}.{node.name}.{member.target.id}" for node in _stubs()[module_name].body
                if isinstance(node, ast.ClassDef) for member in node.body
                if isinstance(member, ast.AnnAssign) and isinstance(member.target, ast.Name)}
    classes = {name for name, value in vars(module).items() if isinstance(value, type)}
    missing = [name for name, value in vars(module).items()
               if callable(value) and not name.startswith("_") and name not in classes
               and f"{module_name}.{name}" not in stubbed]
    for cls in classes:
        assert getattr(module, cls).__module__ == module_name, f"{cls}: pickle looks for it in its __module__"
        for member, value in vars(getattr(module, cls)).items():
            if member.startswith("_") and member not in ("__getstate__", "__setstate__"):
                continue
            if f"{module_name}.{cls}.{member}" not in stubbed:
                missing.append(f"{cls}.{member}")
    assert not missing


@pytest.mark.parametrize(
    ("runtime", "stub", "same"),
    [
        ("f(a: typing.SupportsInt | typing.SupportsIndex = 0) -> dict", "def f(a: int = 0) -> CompareRaw: ...", True),
        ("f(a: typing.SupportsInt | typing.SupportsIndex = 0) -> dict", "def f(b: int = 0) -> CompareRaw: ...", False),
        ("f(a: str = '') -> list", "def f(a: str = 'x') -> list[str]: ...", False),
        ("f(a: str) -> list", "def f(a: int) -> list[str]: ...", False),
        ("f(a: str) -> list", "def f(a: str) -> dict[str, str]: ...", False),
        ("f(arg0: list) -> int", "def f(parts: list[int], /) -> int: ...", True),
        ("f(arg0: list) -> int", "def f(parts: list[int]) -> int: ...", False),
        ("f(a: collections.abc.Sequence[tuple[str, typing.SupportsFloat | typing.SupportsIndex, "
         "typing.SupportsFloat | typing.SupportsIndex, typing.SupportsFloat | typing.SupportsIndex]]) -> int",
         "def f(a: Sequence[_Axis]) -> int: ...", True),
        ("f(a: str, b: str) -> int", "def f(a: str) -> int: ...", False),
    ],
)
def test_the_comparison_finds_drift(runtime: str, stub: str, same: bool) -> None:
    definition = ast.parse(stub).body[0]
    assert isinstance(definition, ast.FunctionDef)
    names = _stub_names(ast.parse("from ..results import CompareRaw\n_Axis = tuple[str, float, float, float]"))
    assert (not list(_mismatches(_pybind11_signature(runtime, "f"), definition, False, names))) == same
