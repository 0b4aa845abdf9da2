"""An erasure leaves none of the erased texts in the process's caches keyed by texts:
the sentence spans of the last 256 short texts split (``text/sentences.py``), the
token counts of the last 4,096 short texts counted (``providers/tokens.py``: a
packet's lines), the secret findings of the last 1,024 texts the gate read
(``ingest/gate.py``) and the text a pattern gate lower-cased last
(``text/literals.py``). ``erase_user`` and ``erase_level`` empty them all, since the
texts they hold cannot all be named by the erased rows. Through ``Memory`` on both
backends."""

from __future__ import annotations

from typing import Any

from cognimem import Memory
from cognimem.ingest import gate
from cognimem.providers import tokens
from cognimem.text import literals, sentences


def _kept() -> tuple[bool, bool, bool, bool]:
    """Whether each cache keyed by texts holds one."""
    return (
        sentences.kept_texts() > 0,
        tokens.kept_counts() > 0,
        gate.kept_secret_texts() > 0,
        literals.kept_lowered() > 0,
    )


ADA = "My locker code at the gym is 4417, next to the sauna."
OPS = "Always page the on-call lead before restarting the billing queue."


async def test_erasing_a_user_drops_their_texts_from_the_text_caches(memory: Memory) -> None:
    await memory.write(ADA, user_id="ada")
    await memory.write("I like my tea without sugar.", user_id="bob")
    await memory.read("what is my locker code?", user_id="ada")
    # the writes split their turns, the read counted its packet's lines
    assert _kept() == (True, True, True, True)
    await memory.erase_user("ada")
    assert _kept() == (False, False, False, False)


async def test_erasing_a_level_drops_its_texts_from_the_text_caches(memory: Memory) -> None:
    scope: dict[str, Any] = {"agent_id": "ops"}
    await memory.write(OPS, scope=scope, profile="mandate")
    await memory.read("may I restart the billing queue?", scope=scope)
    assert _kept() == (True, True, True, True)
    await memory.erase_level(agent_id="ops")
    assert _kept() == (False, False, False, False)
