"""Shared fixtures: a real SQLite file and the deterministic hashing embedder."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cognimem import Memory, Settings
from cognimem.providers.fakes import HashingEmbedder


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'memory.db'}"


@pytest.fixture
async def memory(db_url: str) -> AsyncIterator[Memory]:
    async with Memory.open(db_url, settings=Settings(), embedder=HashingEmbedder()) as mem:
        yield mem
