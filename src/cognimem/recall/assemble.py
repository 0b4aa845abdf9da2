"""Assemble the context packet: best first, cut to the token budget (pure)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cognimem.models import MemoryItem, PacketItem
from cognimem.models.packets import MARKDOWN_HEADER, markdown_line


def assemble(
    ranked: Sequence[tuple[MemoryItem, float, dict[str, float]]],
    limit: int,
    max_tokens: int,
    count_tokens: Callable[[str], int],
) -> tuple[list[PacketItem], int, bool]:
    """Take up to ``limit`` items in rank order whose rendered lines fit ``max_tokens``.

    The budget counts the markdown rendering (header plus one line per item). An item
    that does not fit is left out and smaller ones below it may still fit. Returns the
    packet items, the tokens used and whether anything was cut for the budget.
    """
    chosen: list[PacketItem] = []
    used = count_tokens(MARKDOWN_HEADER)
    truncated = False
    for item, score, signals in ranked:
        if len(chosen) >= limit:
            break
        candidate = PacketItem(
            id=item.id,
            text=item.text,
            kind=item.kind,
            score=round(score, 6),
            signals={k: round(v, 6) for k, v in signals.items()},
            occurred_at=item.occurred_at,
            author=item.author,
            source_event_ids=item.source_event_ids,
            external_ids=item.external_ids,
            confidence=item.confidence,
            token_count=item.token_count,
        )
        cost = count_tokens(markdown_line(candidate) + "\n")
        if used + cost > max_tokens:
            truncated = True
            continue
        used += cost
        chosen.append(candidate)
    return chosen, used, truncated
