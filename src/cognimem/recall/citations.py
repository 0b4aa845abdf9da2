"""Which memories of a packet an answer used (pure): ``turn`` counts them as cited
(``UsageStore``, ``cited_count``), the signal promotion and the ``utility`` rerank
signal weigh.

An answer rarely quotes a memory, but it repeats what it relied on: the names, numbers
and content words of the memory. A memory is **cited** when the answer holds at least
:data:`MIN_SHARED` of the memory's content words (``text/tokens.query_terms``: lower
case, no function words; a word sharing its first five letters counts, "adopted" for
"adopt") and they are at least :data:`MIN_SHARE` of the memory's content words. A memory
with a single content word is cited when the answer holds it. Lexical only: no
embedding is made for it (the answer is embedded when it is stored, but the packet holds
no vectors), so a paraphrase in wholly other words is not counted.

What a packet shows is weighed: its ranked memories and its mandates, summaries and
procedures by their text; a fact or constraint of a section by its sentence, and when
cited, every memory it came from (its evidence items) is cited.
"""

from __future__ import annotations

from collections.abc import Iterable

from cognimem.models import ContextPacket
from cognimem.recall.analyze import query_terms

MIN_SHARED = 2
MIN_SHARE = 0.34
_STEM = 5


def _stems(words: Iterable[str]) -> set[str]:
    return {w[:_STEM] if len(w) >= _STEM else w for w in words}


def uses(answer: set[str], text: str) -> bool:
    """Whether an answer (its content-word stems) uses a memory's ``text``."""
    mine = _stems(query_terms(text))
    if not mine:
        return False
    shared = len(mine & answer)
    if len(mine) == 1:
        return shared == 1
    return shared >= MIN_SHARED and shared / len(mine) >= MIN_SHARE


def cited_items(answer: str, packet: ContextPacket) -> list[str]:
    """Ids of the packet's memories the answer used, in the packet's order, once each."""
    words = _stems(query_terms(answer))
    if not words:
        return []
    s = packet.sections
    out: dict[str, None] = {}
    for item in (*s.mandates, *s.summaries, *s.procedures, *packet.items):
        if uses(words, item.text):
            out.setdefault(item.id, None)
    for entry in s.entries():
        if uses(words, entry.text):
            for item_id in entry.item_ids:
                out.setdefault(item_id, None)
    return list(out)
