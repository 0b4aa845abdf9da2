"""The TypeScript SDK (sdk/typescript) keeps in step with the server and the Python SDK:
its wire types are the app's OpenAPI schema as generated now, it has a method for every
public method of ``AsyncMemoryClient``, and a class for every error of the tree."""

from __future__ import annotations

import importlib.util
import inspect
import re
from pathlib import Path
from types import ModuleType

from cognimem import errors
from cognimem.client import AsyncMemoryClient

ROOT = Path(__file__).resolve().parents[2]
SDK = ROOT / "sdk" / "typescript" / "src"


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "typescript_types", ROOT / "scripts" / "typescript_types.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_sdk_types_are_the_openapi_schema() -> None:
    gen = generator()
    diff = gen.stale_diff((SDK / "models.ts").read_text(), gen.generated())
    assert diff == "", (
        "sdk/typescript/src/models.ts differs from the app's /openapi.json: run "
        "`.venv/bin/python scripts/typescript_types.py`, then fit src/client.ts and "
        f"src/options.ts to the change\n{diff}"
    )


def test_the_generator_marks_what_a_response_always_has() -> None:
    gen = generator()
    schemas = {
        "Req": {
            "properties": {"a": {"type": "string"}, "b": {"$ref": "#/components/schemas/Res"}},
            "required": ["a"],
        },
        "Res": {"properties": {"n": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}},
        "Out": {"properties": {"n": {"type": "array", "items": {"enum": ["x", "y"]}}}},
        "Zone": {"type": "string", "enum": [f"z{i}" for i in range(gen.OPEN_ENUM + 1)]},
    }
    text = gen.render(schemas, {"Req", "Res"})
    assert "export interface Req {\n  a: string;\n  b?: Res;\n}" in text
    assert "export interface Res {\n  n?: number | null;\n}" in text
    assert 'export interface Out {\n  n: ("x" | "y")[];\n}' in text  # response only
    assert "export type Zone = string;" in text


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def test_every_python_sdk_method_has_a_typescript_method() -> None:
    source = (SDK / "client.ts").read_text()
    methods = set(re.findall(r"^  async \*?(\w+)\(", source, re.M))
    python = {
        name
        for name, _ in inspect.getmembers(AsyncMemoryClient, inspect.isfunction)
        if not name.startswith("_") and name != "aclose"
    } | {"export"}  # an async generator: not a plain function to inspect
    missing = sorted(camel(name) for name in python if camel(name) not in methods)
    assert missing == [], f"MemoryClient (sdk/typescript/src/client.ts) lacks {missing}"


def test_every_error_has_a_typescript_class_with_the_same_parent() -> None:
    source = (SDK / "errors.ts").read_text()
    declared = dict(re.findall(r"^export class (\w+) extends (\w+)", source, re.M))
    # a class's parent is its first public one (``_RetryLater`` is how two are built)
    expected = {
        name: next(b for b in cls.__mro__[1:] if not b.__name__.startswith("_")).__name__
        for name in errors.__all__
        if isinstance(cls := getattr(errors, name), type) and name != "CognimemError"
    }
    expected |= {"CognimemError": "Error", "ClientError": "CognimemError"}
    expected["TransportError"] = "ClientError"
    assert declared == expected
