"""What both backends share for erasure (``store/sqlite/erasure.py``,
``store/postgres/erasure.py``): the tables an owner's rows are deleted from, the SQL
that finds the entities a level's rows name and those no row names any more, the
embedding-cache keys of the erased texts, what an erased user's events do to the
agents' procedures they helped learn, and whose lifecycle runs a shared level's are."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence

from cognimem.models.ids import content_hash
from cognimem.models.items import index_text
from cognimem.text.tokens import trigger_terms

# the tables whose rows carry their owner (a user's also own entities, and lifecycle
# runs under their id; a level's runs are held under ``level_holder``)
USER_TABLES = ("items", "events", "facts", "conflicts", "entities", "sessions",
               "lifecycle_runs", "procedures")  # fmt: skip
LEVEL_TABLES = ("items", "events", "facts", "conflicts", "sessions", "procedures")
# the columns that name an entity, by table
_ENTITY_REFERENCES = (
    ("facts", "subject_entity_id"),
    ("facts", "object_entity_id"),
    ("relations", "source_entity_id"),
    ("relations", "target_entity_id"),
)
# a clause on the entities ``e``: no fact or relation names it any more
UNNAMED_ENTITY = (
    "NOT EXISTS (SELECT 1 FROM facts f WHERE f.subject_entity_id = e.id"
    " OR f.object_entity_id = e.id)"
    " AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.source_entity_id = e.id"
    " OR r.target_entity_id = e.id)"
)


def named_entities(owner: str) -> str:
    """The query of the entity ids the facts and relations that ``owner`` (a clause,
    repeated once per column, so its parameters are bound four times) picks name."""
    return " UNION ".join(
        f"SELECT {column} FROM {table} WHERE {owner}" for table, column in _ENTITY_REFERENCES
    )


def erased_hashes(
    items: Iterable[tuple[str | None, str]], texts: Iterable[str], hashes: Iterable[str]
) -> list[str]:
    """Embedding-cache keys of erased content: each item's text alone and as embedded
    (with its author), other texts (facts), and hashes known already (events')."""
    out = set(hashes)
    for author, text in items:
        out.add(content_hash(text))
        out.add(content_hash(index_text(author, text)))
    out.update(content_hash(t) for t in texts)
    return sorted(out)


ProcedureRow = tuple[str, str, str, str]  # id, trigger, request ids, source ids (JSON)


def touched_procedures(
    rows: Iterable[ProcedureRow], erased: Collection[str]
) -> tuple[list[ProcedureRow], set[str]]:
    """Of the shared (agent) procedures ``rows``, those the erased events helped learn,
    and the ids of all their request events (whose words ``scrub_procedures`` needs)."""
    touched: list[ProcedureRow] = []
    requests: set[str] = set()
    for row in rows:
        asked, sources = json.loads(row[2]), json.loads(row[3])
        if any(e in erased for e in (*asked, *sources)):
            touched.append(row)
            requests.update(asked)
    return touched, requests


def scrub_procedures(
    touched: Iterable[ProcedureRow], erased: Collection[str], said: Mapping[str, str]
) -> tuple[list[str], list[tuple[str, str, str, str]]]:
    """What erasing a user does to the agents' procedures its events helped learn
    (``touched_procedures``; ``said``: request event id -> content): the ids to delete —
    no other user's request is left, or the trigger is the erased user's words and no
    other request says them — and, for the others, (id, request ids, source ids as
    JSON) with the erased ids taken out."""

    def says(event_id: str, trigger: str) -> bool:
        text = " ".join(said.get(event_id, "").split())
        cut = trigger.removesuffix("…")
        return text == trigger or (cut != trigger and text.startswith(cut))

    deleted: list[str] = []
    kept: list[tuple[str, str, str, str]] = []
    for procedure_id, trigger, requests_json, sources_json in touched:
        requests, sources = json.loads(requests_json), json.loads(sources_json)
        left = [e for e in requests if e not in erased]
        theirs = any(says(e, trigger) for e in requests if e in erased)
        terms = remaining_terms([said.get(e, "") for e in left])
        if not left or not terms or (theirs and not any(says(e, trigger) for e in left)):
            deleted.append(procedure_id)
        else:
            rest = [e for e in sources if e not in erased]
            kept.append((procedure_id, json.dumps(left), json.dumps(rest), json.dumps(terms)))
    return deleted, kept


def remaining_terms(requests: Sequence[str]) -> list[str]:
    """A kept procedure's trigger terms made again from the requests left (in their
    order): the words at least half of them hold, in the first's order (as detection
    makes them, ``lifecycle/procedures.py``), so no erased user's word stays in them."""
    said = [t for t in (trigger_terms(r) for r in requests) if t]
    if not said:
        return []
    counts: dict[str, int] = {}
    for terms in said:
        for t in set(terms):
            counts[t] = counts.get(t, 0) + 1
    common = [t for t in said[0] if 2 * counts[t] >= len(said)]
    return common or said[0]


def level_holder(agent_id: str | None) -> str:
    """The ``user_id`` a shared level's lifecycle runs are recorded under (as
    ``services/lifecycle/operations.py``: ``level_key`` names them): ``#agent/<id>`` or
    ``#organisation``, characters no user id has."""
    return "#organisation" if agent_id is None else f"#agent/{agent_id}"
