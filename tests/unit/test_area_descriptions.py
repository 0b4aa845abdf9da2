"""AreaDescriptions: one shared embedding of the areas' phrases, kept through a
caller's cancellation, tried again after a failure."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import numpy as np
import pytest

from cognimem.errors import ProviderError
from cognimem.text.areas import AREA_PHRASES, AreaDescriptions


class SlowEmbed:
    """Embeds after ``release`` is set; counts its calls; fails while ``fail`` is set."""

    def __init__(self) -> None:
        self.calls = 0
        self.release = asyncio.Event()
        self.fail = False

    async def __call__(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        await self.release.wait()
        if self.fail:
            raise ProviderError("embedding failed", provider="fake", model="fake")
        return np.ones((len(texts), 4), dtype=np.float32)


async def test_concurrent_callers_share_one_embedding() -> None:
    areas, embed = AreaDescriptions(), SlowEmbed()
    first = asyncio.ensure_future(areas.matrix(embed))
    second = asyncio.ensure_future(areas.matrix(embed))
    await asyncio.sleep(0)
    embed.release.set()
    a, b = await asyncio.gather(first, second)
    assert embed.calls == 1
    assert a.shape == (len(AREA_PHRASES), 4)
    assert a is b
    assert await areas.matrix(embed) is a
    assert embed.calls == 1


async def test_a_cancelled_caller_leaves_the_embedding_to_finish_and_be_kept() -> None:
    areas, embed = AreaDescriptions(), SlowEmbed()
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.01):  # a step's timeout
            await areas.matrix(embed)
    embed.release.set()
    found = await areas.matrix(embed)
    assert embed.calls == 1  # not embedded again by the next caller
    assert found.shape == (len(AREA_PHRASES), 4)


async def test_a_failure_reaches_its_callers_and_the_next_caller_tries_again() -> None:
    areas, embed = AreaDescriptions(), SlowEmbed()
    embed.fail = True
    embed.release.set()
    with pytest.raises(ProviderError):
        await areas.matrix(embed)
    embed.fail = False
    found = await areas.matrix(embed)
    assert embed.calls == 2
    assert found.shape == (len(AREA_PHRASES), 4)
