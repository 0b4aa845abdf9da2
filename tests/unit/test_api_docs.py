"""docs/api.md documents exactly the routes the app serves: every operation of the
OpenAPI schema has a ``### `METHOD /path` `` heading, and every heading is served."""

from __future__ import annotations

import re
from pathlib import Path

from cognimem import Memory
from cognimem.api import create_app
from cognimem.providers.fakes import HashingEmbedder

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
HEADING = re.compile(r"^### `(GET|POST|PUT|PATCH|DELETE) (/\S*)`$", re.MULTILINE)
# served outside the OpenAPI schema: the Prometheus endpoint and the MCP mount
UNLISTED = {("GET", "/metrics"), ("POST", "/v1/mcp/")}


def served(tmp_path: Path) -> set[tuple[str, str]]:
    app = create_app(Memory.open(f"sqlite:///{tmp_path / 'm.db'}", embedder=HashingEmbedder()))
    schema = app.openapi()
    return {(method.upper(), path) for path, ops in schema["paths"].items() for method in ops}


def test_every_route_is_documented_and_every_documented_route_is_served(
    tmp_path: Path,
) -> None:
    documented = set(HEADING.findall(DOC.read_text()))
    routes = served(tmp_path)
    assert routes - documented == set(), "routes missing from docs/api.md"
    assert documented - routes - UNLISTED == set(), "docs/api.md documents unknown routes"
    assert documented >= UNLISTED


def test_every_error_answer_in_the_schema_has_the_error_shape(tmp_path: Path) -> None:
    app = create_app(Memory.open(f"sqlite:///{tmp_path / 'm.db'}", embedder=HashingEmbedder()))
    schema = app.openapi()
    for path, ops in schema["paths"].items():
        if path == "/v1/health":
            continue
        for method, op in ops.items():
            for status in ("4XX", "5XX"):
                ref = op["responses"][status]["content"]["application/json"]["schema"]["$ref"]
                assert ref.endswith("/ErrorResponse"), (method, path, status)
