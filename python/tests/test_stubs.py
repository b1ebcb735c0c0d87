"""The type stubs (rtl_gen/_native.pyi) declare what the extension module has: every public
function and class, and every public method, property and attribute of each class, and nothing
it lacks, so that an editor completes exactly the names that exist."""

import ast

import rtl_gen
from conftest import ROOT
from rtl_gen import _native

STUBS = ROOT / "python" / "rtl_gen" / "_native.pyi"


def stub_names():
    """{top-level name: set of public member names (classes) or None (functions)}."""
    tree = ast.parse(STUBS.read_text())
    names = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            members = set()
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    members.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    members.add(item.target.id)
            names[node.name] = {m for m in members if not m.startswith("_")}
        elif isinstance(node, ast.FunctionDef):
            names[node.name] = None
    return names


def test_every_public_name_is_declared_and_nothing_else():
    declared = stub_names()
    public = {n for n in rtl_gen.__all__ if not n.startswith("_")}
    assert public - set(declared) == set(), "in the package, not in the stubs"
    assert {n for n in declared if not n.startswith("_")} - public == set(), "in the stubs only"


def test_every_class_member_is_declared_and_nothing_else():
    for name, members in stub_names().items():
        if members is None:
            continue
        cls = getattr(_native, name)
        if issubclass(cls, BaseException):
            continue  # RtlGenError: ValueError's members
        runtime = {m for m in dir(cls) if not m.startswith("_")}
        assert runtime - members == set(), f"{name}: in the class, not in the stubs"
        assert members - runtime == set(), f"{name}: in the stubs only"
