"""An item linked to the person a reference in it names: "Her clinic is in Brooklyn",
said after "My sister Maya is a vet", is Maya's item though no fact is read from it.

The write (``ingest/knowledge.py``) adds the entity to the item's ``entities`` and the
resolution, as the rule extractor gave it (``models/extraction.py``: ``Link``), to its
metadata under :data:`COREFERENCE`, a list; ``read(..., explain=True)`` shows it as the
item's reason ("Her" is Maya (her: the latest woman named (as my sister))).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

# the item metadata key (and the fact provenance key) of the references resolved in it
COREFERENCE = "coreference"


@dataclass(frozen=True)
class ItemReference:
    """One item of ``tenant_id`` linked to ``entity_id`` by a resolved reference
    (``link``: what was said, who it is, the evidence, the sentence)."""

    tenant_id: str
    item_id: str
    entity_id: str
    link: dict[str, Any]


def reference_reason(links: list[dict[str, Any]]) -> str | None:
    """Who the pronouns and role words of a fact or item were read as, and why: "She"
    is Sarah Jones (she: the latest woman named (as my sister))."""
    said = [f'"{x["said"]}" is {x["name"]} ({x["evidence"]})' for x in links]
    return "; ".join(said) or None


def linked_items(links: Sequence[ItemReference]) -> dict[tuple[str, str], list[ItemReference]]:
    """``links`` by item: (tenant id, item id) → its links, in order."""
    out: dict[tuple[str, str], list[ItemReference]] = {}
    for link in links:
        out.setdefault((link.tenant_id, link.item_id), []).append(link)
    return out


def with_links(
    entities: list[str], metadata: dict[str, Any], links: Sequence[ItemReference]
) -> tuple[list[str], list[dict[str, Any]]]:
    """An item's ``entities`` with the entities of ``links`` added, and its metadata's
    :data:`COREFERENCE` list with their resolutions added (each once)."""
    said = metadata.get(COREFERENCE)
    kept = [x for x in said if isinstance(x, dict)] if isinstance(said, list) else []
    kept += [link.link for link in links if link.link not in kept]
    return list(dict.fromkeys([*entities, *(link.entity_id for link in links)])), kept


@dataclass(frozen=True)
class ItemLinks:
    """One item's links as stored: the entities it is linked to (``entities``) and the
    resolutions that linked them (its metadata's :data:`COREFERENCE` list). Undoing a
    name merge rewrites them (``editing/aliases.py``: ``relinked``)."""

    item_id: str
    entities: list[str]
    links: list[dict[str, Any]]

    @classmethod
    def stored(cls, item_id: str, entities: list[str], metadata: dict[str, Any]) -> ItemLinks:
        said = metadata.get(COREFERENCE)
        kept = [x for x in said if isinstance(x, dict)] if isinstance(said, list) else []
        return cls(item_id, list(entities), kept)
