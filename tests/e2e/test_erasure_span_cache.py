"""An erasure leaves none of the erased texts in the process's sentence-span cache
(``text/sentences.py`` keeps the spans of the last 256 short texts split, keyed by the
texts themselves): ``erase_user`` and ``erase_level`` empty it, since the texts it
holds cannot all be named by the erased rows. Through ``Memory`` on both backends."""

from __future__ import annotations

from typing import Any

from cognimem import Memory
from cognimem.text import sentences

ADA = "My locker code at the gym is 4417, next to the sauna."
OPS = "Always page the on-call lead before restarting the billing queue."


async def test_erasing_a_user_drops_their_texts_from_the_span_cache(memory: Memory) -> None:
    await memory.write(ADA, user_id="ada")
    await memory.write("I like my tea without sugar.", user_id="bob")
    assert sentences.kept_texts() > 0  # the writes split their turns
    await memory.erase_user("ada")
    assert sentences.kept_texts() == 0


async def test_erasing_a_level_drops_its_texts_from_the_span_cache(memory: Memory) -> None:
    scope: dict[str, Any] = {"agent_id": "ops"}
    await memory.write(OPS, scope=scope, profile="mandate")
    assert sentences.kept_texts() > 0
    await memory.erase_level(agent_id="ops")
    assert sentences.kept_texts() == 0
