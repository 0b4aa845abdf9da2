"""The package's layers, read from the import statements of the source (``ast``, nothing
is imported): the read path does not borrow the write path's modules, ``cognimem.text``
sits below both and imports nothing above it, the write path, the read path, the
lifecycle and editing import nothing from one another, the read service validates without the
write path, no module uses another module's private (underscore) names, and a private
module (``memory/_facade.py``) is imported only inside its own package."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
# what cognimem.text may import: the standard library, third-party packages and these
BELOW_TEXT = ("cognimem.text", "cognimem.models", "cognimem.errors", "cognimem.config")


@dataclass(frozen=True)
class Imported:
    line: int
    module: str  # the module imported from (absolute)
    name: str | None  # the name imported from it (``from module import name``)
    bound: str  # the local name the statement binds


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_files() -> dict[str, Path]:
    """Every module of src/, tests/ and benchmarks/ by dotted name (benchmarks import
    their siblings by bare name, as when run as scripts)."""
    found = {module_name(p, SRC): p for p in SRC.rglob("*.py")}
    found |= {module_name(p, ROOT): p for p in (ROOT / "tests").rglob("*.py")}
    found |= {module_name(p, ROOT / "benchmarks"): p for p in (ROOT / "benchmarks").rglob("*.py")}
    return found


MODULES = source_files()


@cache
def syntax_tree(name: str) -> ast.Module:
    """Module ``name``'s syntax tree, parsed once for every test of this file."""
    return ast.parse(MODULES[name].read_text(encoding="utf-8"))


@cache
def imports_of(name: str) -> tuple[Imported, ...]:
    """Each import statement of module ``name``, anywhere in it (functions included),
    relative imports made absolute; read once for every test of this file."""
    return tuple(_each_import(name))


def is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _each_import(name: str) -> Iterator[Imported]:
    tree = syntax_tree(name)
    package = name if is_package(name) else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.partition(".")[0]
                yield Imported(node.lineno, alias.name, None, bound)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                yield Imported(node.lineno, base, alias.name, alias.asname or alias.name)


def targets(imported: Imported) -> list[str]:
    """The source modules an import loads: the module, or a submodule it names. The
    packages above it, whose ``__init__`` Python runs first, are not followed:
    ``cognimem/__init__`` imports the whole library for its public names."""
    found = []
    if imported.name is not None and f"{imported.module}.{imported.name}" in MODULES:
        found.append(f"{imported.module}.{imported.name}")
    module = imported.module
    while module and module not in MODULES:
        module = module.rpartition(".")[0]
    if module:
        found.append(module)
    return found


def under(module: str, *prefixes: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def reachable(start: list[str]) -> dict[str, list[str]]:
    """Every src module ``start`` imports, directly or through others, with the chain of
    imports that reaches it."""
    chains = {m: [m] for m in start}
    todo = list(start)
    while todo:
        current = todo.pop()
        for imported in imports_of(current):
            for target in targets(imported):
                if target.startswith("cognimem") and target not in chains:
                    chains[target] = [*chains[current], target]
                    todo.append(target)
    return chains


def modules_under(prefix: str) -> list[str]:
    return sorted(m for m in MODULES if under(m, prefix))


def test_the_read_path_imports_nothing_from_the_write_path() -> None:
    chains = reachable(modules_under("cognimem.recall"))
    borrowed = [" -> ".join(c) for m, c in sorted(chains.items()) if under(m, "cognimem.ingest")]
    assert borrowed == []


# the three paths over the store, side by side: each may import what lies below them
# (text/, models/, store/, providers/), never one another
SIDE_BY_SIDE = ("cognimem.ingest", "cognimem.recall", "cognimem.lifecycle", "cognimem.editing")


def test_the_paths_import_nothing_from_one_another() -> None:
    found = []
    for path in SIDE_BY_SIDE:
        chains = reachable(modules_under(path))
        found += [
            " -> ".join(c)
            for m, c in sorted(chains.items())
            if under(m, *SIDE_BY_SIDE) and not under(m, path)
        ]
    assert found == []
    assert all(modules_under(path) for path in SIDE_BY_SIDE)


def test_text_imports_nothing_above_it() -> None:
    assert modules_under("cognimem.text"), "cognimem.text is missing"
    chains = reachable(modules_under("cognimem.text"))
    above = [" -> ".join(c) for m, c in sorted(chains.items()) if not under(m, *BELOW_TEXT)]
    assert above == []


def test_the_read_service_validates_without_the_write_path() -> None:
    found = [
        f"line {i.line}: {i.module}"
        for i in imports_of("cognimem.services.reading")
        if under(i.module, "cognimem.ingest")
    ]
    assert found == []


def private_uses(name: str) -> Iterator[str]:
    """``from other import _name``, and ``other._name`` where ``other`` is a module of
    this repository bound by an import."""
    tree = syntax_tree(name)
    modules: set[str] = set()  # local names that stand for a module
    for imported in imports_of(name):
        if imported.name is None:
            modules.add(imported.bound)
            continue
        if imported.name.startswith("_") and not imported.name.startswith("__"):
            yield f"line {imported.line}: from {imported.module} import {imported.name}"
        if f"{imported.module}.{imported.name}" in MODULES:
            modules.add(imported.bound)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ):
            base: ast.expr = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in modules:
                yield f"line {node.lineno}: {ast.unparse(node)}"


def test_no_module_uses_another_modules_private_names() -> None:
    found = [f"{m}: {use}" for m in sorted(MODULES) for use in private_uses(m)]
    assert found == []


def private_package(module: str) -> str | None:
    """The package a private module (a name part with one leading underscore, as in
    ``cognimem.memory._facade``) belongs to; None for a public module."""
    parts = module.split(".")
    for i, part in enumerate(parts):
        if part.startswith("_") and not part.startswith("__"):
            return ".".join(parts[:i])
    return None


def test_private_modules_are_imported_only_inside_their_package() -> None:
    found = []
    for name in sorted(MODULES):
        if not name.startswith("cognimem"):
            continue  # tests may reach inside to test what a module does
        for imported in imports_of(name):
            target = imported.module
            if imported.name is not None and f"{target}.{imported.name}" in MODULES:
                target = f"{target}.{imported.name}"
            owner = private_package(target)
            if owner is not None and not (name == owner or name.startswith(owner + ".")):
                found.append(f"{name}: line {imported.line} imports {target}")
    assert found == []


def test_a_private_module_is_recognised() -> None:
    assert private_package("cognimem.memory._facade") == "cognimem.memory"
    assert private_package("cognimem.client._wire") == "cognimem.client"
    assert private_package("cognimem.memory") is None
    assert private_package("cognimem.__main__") is None


def test_the_framework_integrations_sit_on_top() -> None:
    """Nothing in cognimem imports ``cognimem.integrations`` (each one needs its optional
    extra), and no integration imports another; they share only helpers that import no
    framework."""
    integrations = modules_under("cognimem.integrations")
    assert "cognimem.integrations.langgraph" in integrations
    below = [m for m in MODULES if under(m, "cognimem") and m not in integrations]
    chains = reachable(below)
    found = [" -> ".join(c) for m, c in sorted(chains.items()) if m in integrations]
    assert found == []
    shared = ("integrations", "bridge", "extras", "tools", "transcript")  # no framework
    frameworks = [m for m in integrations if m.rpartition(".")[2] not in shared]
    for module in frameworks:
        borrowed = [i.module for i in imports_of(module) if i.module in frameworks]
        assert borrowed == [], module
