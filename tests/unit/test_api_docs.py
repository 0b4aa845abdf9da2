"""docs/api.md documents exactly the routes the app serves: every operation of the
OpenAPI schema has a ``### `METHOD /path` `` heading, and every heading is served."""

from __future__ import annotations

import re
from pathlib import Path

from cognimem import Memory
from cognimem.api import create_app
from cognimem.models.events import NOT_BLANK
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


PROBES = {"/v1/health", "/v1/ready"}  # no key: no 401, no error answers of their own


def test_every_error_answer_in_the_schema_has_the_error_shape(tmp_path: Path) -> None:
    app = create_app(Memory.open(f"sqlite:///{tmp_path / 'm.db'}", embedder=HashingEmbedder()))
    schema = app.openapi()
    for path, ops in schema["paths"].items():
        if path in PROBES:
            continue
        for method, op in ops.items():
            statuses = {int(s) for s in op["responses"]}
            # every route needs a key and checks its input
            assert {401, 422, 500, 503} <= statuses, (method, path, statuses)
            for status in statuses - {200, 201, 202}:
                content = op["responses"][str(status)]["content"]["application/json"]
                assert content["schema"]["$ref"].endswith("/ErrorResponse"), (method, path)


def test_the_schema_documents_what_routes_answer(tmp_path: Path) -> None:
    app = create_app(Memory.open(f"sqlite:///{tmp_path / 'm.db'}", embedder=HashingEmbedder()))
    paths = app.openapi()["paths"]
    for path in ("/v1/memory/write", "/v1/memory/write_batch", "/v1/memory/turn"):
        assert "202" in paths[path]["post"]["responses"], path  # async ingestion
    for path in ("/v1/memory/get/{item_id}", "/v1/jobs/{job_id}"):
        assert "404" in paths[path]["get"]["responses"], path
    assert "409" in paths["/v1/sessions"]["post"]["responses"]
    assert set(paths["/v1/ready"]["get"]["responses"]) == {"200", "503"}
    content = {
        ("/v1/memory/read", "text/markdown"),
        ("/v1/memory/read/stream", "text/event-stream"),
        ("/v1/memory/export", "application/x-ndjson"),
    }
    for path, media_type in content:
        assert media_type in paths[path]["post"]["responses"]["200"]["content"], path


def test_the_schemas_not_blank_pattern_is_what_the_write_funnel_checks() -> None:
    """A text the schema's pattern accepts is one ``check_text`` does not call empty."""
    for code in range(0x3100):
        char = chr(code)
        if 0xD800 <= code < 0xE000:
            continue
        assert bool(re.search(NOT_BLANK, char)) == bool(char.strip()), hex(code)
