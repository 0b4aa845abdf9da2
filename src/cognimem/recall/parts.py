"""The parts of a request that asks for several things at once (pure).

"Can you book me a dinner and a flight?" is two decisions in one sentence: the dinner
bears on the user's food constraints, the flight on their travel ones. Scored as one
text, the request sits nearest whichever part its embedding leans to, and the standing
profile (``recall/profile.py``) keeps to the entries that stand out for it — the flight
rule only. Each part is ranked on its own as well (``recall/profile_read.py``), so every
part reaches its constraints.

A request is split at its coordinators ("and", "then", "as well as", "plus", a comma or
semicolon); a part counts when it has a content word and a scope tag of its own — a
decision area no other part names — so "a dinner and a flight" is two parts, while "for
me and the kids" or "a quick and cheap lunch" are not.
"""

from __future__ import annotations

import re

from cognimem.recall.analyze import query_terms
from cognimem.text.scope_tags import scope_tags

__all__ = ["MAX_PARTS", "request_parts"]

# a request naming more things than this is a list, not a few decisions (each part
# costs the read one more embedding)
MAX_PARTS = 3
_COORDINATOR = re.compile(
    r"\s*(?:[,;]\s*(?:and|then)?|\band\b|\bthen\b|\bas well as\b|\bplus\b)\s*"
)


def request_parts(query: str) -> list[str]:
    """The parts of ``query`` that each name a decision of their own, in order; empty
    when it has fewer than two (or more than ``MAX_PARTS``)."""
    pieces = [p.strip(" ?!.") for p in _COORDINATOR.split(query.replace("-", " "))]
    pieces = [p for p in pieces if p and query_terms(p)]
    if not 2 <= len(pieces) <= MAX_PARTS:
        return []
    tags = [frozenset(scope_tags(p)) for p in pieces]
    parts = []
    for i, (piece, own) in enumerate(zip(pieces, tags, strict=True)):
        others = frozenset().union(*(t for j, t in enumerate(tags) if j != i))
        if own - others:
            parts.append(piece)
    return parts if len(parts) >= 2 else []
