"""The dashboard's files as the package ships them: everything the page loads is in the
package, nothing names another origin, every module imports files that exist, and the
app serves them at /ui with headers that keep the page to its own server. And the
browser tests' own guard: no browser means a skip with the reason, or a failure in CI."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from cognimem import Memory
from cognimem.api import create_app
from cognimem.providers.fakes import HashingEmbedder
from cognimem.ui import CONTENT_SECURITY_POLICY, STATIC_DIR
from tests.e2e import dashboard_world

SOURCES = [p for p in STATIC_DIR.rglob("*") if p.suffix in {".html", ".css", ".js", ".svg"}]
REFERENCE = re.compile(r"""(?:src|href)="([^"#][^"]*)"|from "(\.[^"]+)"|import\("(\.[^"]+)"\)""")


def test_every_file_the_page_references_ships_in_the_package() -> None:
    index = STATIC_DIR / "index.html"
    checked = 0
    for source in SOURCES:
        for match in REFERENCE.finditer(source.read_text()):
            target = next(g for g in match.groups() if g)
            if target.startswith("http://www.w3.org/"):  # the SVG namespace, not a request
                continue
            assert "://" not in target, (source.name, target)
            assert (source.parent / target).resolve().is_file(), (source.name, target)
            checked += 1
    assert checked >= 10
    assert 'src="js/app.js"' in index.read_text()


def test_no_file_names_another_origin() -> None:
    for source in SOURCES:
        text = source.read_text()
        urls = set(re.findall(r"https?://[^\s\"')]+", text)) - {"http://www.w3.org/2000/svg"}
        assert urls == set(), source.name
        # text from memory never becomes markup
        assert not re.search(r"\.(inner|outer)HTML\s*=|insertAdjacentHTML", text), source.name


def test_modules_stay_small() -> None:
    for source in SOURCES:
        assert len(source.read_text().splitlines()) < 600, source.name


async def test_the_app_serves_the_dashboard_with_its_headers(tmp_path: Path) -> None:
    memory = Memory.open(f"sqlite:///{tmp_path / 'm.db'}", embedder=HashingEmbedder())
    app = create_app(memory)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://cognimem.test"
        ) as client,
    ):
        bare = await client.get("/ui")
        assert bare.status_code in (301, 307, 308)
        assert bare.headers["location"].endswith("/ui/")
        page = await client.get("/ui/")
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        assert page.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
        assert "default-src 'self'" in CONTENT_SECURITY_POLICY
        assert page.headers["x-content-type-options"] == "nosniff"
        script = await client.get("/ui/js/pages/facts.js")
        assert script.status_code == 200
        assert "javascript" in script.headers["content-type"]
        assert (await client.get("/ui/js/missing.js")).status_code == 404
        # the API's own routes are unchanged by the mount
        assert (await client.get("/v1/health")).json() == {"status": "ok"}


def test_no_browser_skips_with_the_reason_or_fails_when_services_are_required(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    reason = dashboard_world.why_no_browser()
    assert reason is not None
    assert "chromium" in reason
    assert "provision-browser.sh" in reason
    monkeypatch.delenv("COGNIMEM_REQUIRE_SERVICES", raising=False)
    with pytest.raises(pytest.skip.Exception, match="browser UNAVAILABLE"):
        dashboard_world.require_browser()
    monkeypatch.setenv("COGNIMEM_REQUIRE_SERVICES", "1")
    with pytest.raises(pytest.fail.Exception, match="COGNIMEM_REQUIRE_SERVICES=1"):
        dashboard_world.require_browser()
