"""The README's 30-second tour, as written: its curl commands' bodies sent in order to
the real app over HTTP (a key of the tour's tenant in ``$KEY``), on both backends. The
organisation's mandate it writes once is in ada's packet, ahead of her cat."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx

from cognimem import Memory, Settings
from cognimem.api import create_app
from cognimem.providers.fakes import HashingEmbedder
from tests.e2e.http_server import serving
from tests.e2e.test_doc_commands import commands

ROOT = Path(__file__).resolve().parents[2]
ADMIN_KEY = "admin-key-for-the-readme-tour-0123456789"
SERVER = "localhost:8420"


def tour() -> list[tuple[str, dict[str, object]]]:
    """(path, body) of each curl command of the tour that sends a body, in order."""
    found = []
    for _, words in commands(ROOT / "README.md"):
        if words[:1] != ["curl"] or "-d" not in words:
            continue
        (url,) = [w for w in words if w.startswith(SERVER)]
        found.append((url.removeprefix(SERVER), json.loads(words[words.index("-d") + 1])))
    return found


def test_the_tours_packet_carries_the_organisations_mandate(memory_url: str) -> None:
    steps = tour()
    assert [path for path, _ in steps][-1] == "/v1/memory/read"
    assert any(body.get("scope") == {"level": "organisation"} for _, body in steps)
    settings = Settings.model_validate({"auth": {"admin_key": ADMIN_KEY}})
    memory = Memory.open(memory_url, settings=settings, embedder=HashingEmbedder())
    try:
        with serving(create_app(memory)) as base, httpx.Client(base_url=base, timeout=60) as c:
            made = c.post(
                "/v1/admin/keys",
                json={"tenant_id": "demo"},
                headers={"Authorization": f"Bearer {ADMIN_KEY}"},
            )
            key = {"Authorization": f"Bearer {made.json()['secret']}"}
            for path, body in steps:
                answer = c.post(path, json=body, headers=key)
                assert answer.status_code == 200, (path, answer.text)
            packet = answer.text
    finally:
        asyncio.run(memory.aclose())
    mandate, cat = packet.find("Never give medical dosage advice."), packet.find("Noodle")
    assert 0 <= mandate < cat, packet
