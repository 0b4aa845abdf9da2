"""Assemble the context packet: best first, cut to the token budget (pure)."""

from __future__ import annotations

from collections.abc import Sequence

from cognimem.models import MemoryItem, PacketItem


def assemble(
    ranked: Sequence[tuple[MemoryItem, float, dict[str, float]]], limit: int, max_tokens: int
) -> tuple[list[PacketItem], int, bool]:
    """Take up to ``limit`` items in rank order whose tokens fit ``max_tokens``.

    An item that does not fit is left out and smaller ones below it may still fit.
    Returns the packet items, their token total and whether anything was cut for budget.
    """
    chosen: list[PacketItem] = []
    used = 0
    truncated = False
    for item, score, signals in ranked:
        if len(chosen) >= limit:
            break
        if used + item.token_count > max_tokens:
            truncated = True
            continue
        used += item.token_count
        chosen.append(
            PacketItem(
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
        )
    return chosen, used, truncated
