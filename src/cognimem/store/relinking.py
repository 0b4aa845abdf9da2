"""What an alias removal does to the summaries covering the items it relinked and to
the facts of the entity, shared by both backends' ``relinking.py`` (which read the rows
and write the result).

Consolidation gives a summary the entities of the items it covers (its metadata's
``consolidation.covers``); each summary read is given the entities of every item it
covers as they now are (items no longer stored are left out), and the caller's rule says
what its entities become (``None``: unchanged).

Each backend's ``relinking.py`` has the two steps, in the removal's transaction:
``relink_summaries`` sets the entities of the summaries in the entity's namespace
covering an item the removal relinked as ``resummarise`` says and returns each summary
changed, with its new entities; ``move_facts`` sets a user's facts (``None``: the facts
of no user) with the entity as subject or object as ``move`` says, given the entity's
names left (its own and its alias rows' of every user), moves their graph edges with
them, and returns each fact moved. Then ``archive_profiles`` archives the user's live
profiles of ``AliasDeletion.profiles`` when ``profiles_stale`` says so, and
``retire_entity`` deletes an entity merged back that nothing names any more. Between
the two, ``settle_facts`` reads the user's facts under the keys the facts moved had or
have (``touched_keys``) and writes what ``AliasDeletion.settle`` says, taking off the
marks of the facts it restores (``unmarks``) and giving them their graph edges back.
A constraint made live again also gets back the evidence items its supersession
silenced (``restored_evidence``, ``unsilences``: status ``active`` again, with what
``AliasDeletion.unsilence`` writes), and a constraint ``settle`` supersedes has its
items silenced (``Knowledge.silence_items``), as the write path does.
The entity a merge back deletes may be named by a write made meanwhile: each write
checks the entities it names are still stored and, for one that is not, whether a
merge deleted it (``named_entities``, ``merged_away``, in ``check_read_set``), the
merge holding the entity's row from its start on PostgreSQL, so the write is made
again (and resolves the name to the entity merged into) rather than keeping the
deleted entity's id.
A name given back (``EditStore.give_alias``) runs ``relink_summaries`` alone, on the
items whose links come back."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from cognimem.errors import StaleKnowledge
from cognimem.models.fact_changes import LIVE, SILENCED_BY_SUPERSESSION
from cognimem.models.knowledge import Fact, HistoryEntry
from cognimem.store.arguments import AliasDeletion, Moved, Relinked, Resummarised, SummarySources
from cognimem.store.types import Knowledge

# (summary id, its stored entities, its metadata's consolidation record)
SummaryRow = tuple[str, list[str], Mapping[str, Any]]
# the consolidation group of a subject's profile (``lifecycle.consolidate.GroupKind``)
PROFILE_GROUP = "profile"
# an item in these does not keep an entity merged back (a summary replaced, forgotten)
GONE_ITEMS = ("archived", "deleted")


def named_entities(knowledge: Knowledge) -> list[str]:
    """The stored entities a write's ``knowledge`` names (its facts', updates',
    relations', item links' and alias rows'), not those it creates, sorted: a write
    checks they are still there (``check_read_set``), since a merge back deletes the
    entity split off (``retire_entity``) while a write that resolved the name to it
    may be in flight; one no longer stored is looked up in history (``merged_away``)."""
    named = {
        *(e for p in knowledge.facts for e in (p.fact.subject_entity_id, p.fact.object_entity_id)),
        *(e for u in knowledge.fact_updates
          for e in (u.fact.subject_entity_id, u.fact.object_entity_id)),
        *(e for r in knowledge.relations for e in (r.source_entity_id, r.target_entity_id)),
        *(x.entity_id for x in knowledge.item_links),
        *(a.entity_id for a in knowledge.aliases),
    }  # fmt: skip
    made = {e.id for e in knowledge.entities}
    return sorted(e for e in named if e and e not in made)


def merged_away(deleted: Sequence[HistoryEntry]) -> StaleKnowledge | None:
    """The error a write gets when an entity it names was deleted by a merge back
    (``deleted``: the ``deleted`` history entries of the named entities no longer stored;
    one with ``after.merged_into`` is a merge's): made again, the write resolves its
    names anew, to the entity merged into. ``None`` when none was merged (an id never
    stored is left to the write's own rules, e.g. an alias of it is dropped)."""
    gone = sorted({h.target_id for h in deleted if (h.after or {}).get("merged_into")})
    if not gone:
        return None
    return StaleKnowledge(
        f"entity {gone[0]} was merged back during the write", details={"entities": gone}
    )


def touched_keys(moved: Sequence[Moved]) -> list[str]:
    """The keys the facts moved had and now have, sorted."""
    return sorted({f.key for pair in moved for f in pair})


def unmarks(found: Sequence[Fact], settled: Knowledge) -> list[tuple[str, str]]:
    """(fact, the fact that had superseded it) for each fact ``settled`` makes live
    again (``found``: the facts as they were read)."""
    was = {f.id: f for f in found}
    out: list[tuple[str, str]] = []
    for u in settled.fact_updates:
        old = was.get(u.fact.id)
        if u.fact.status in LIVE and old is not None and old.superseded_by is not None:
            out.append((old.id, old.superseded_by))
    return out


def restored_evidence(found: Sequence[Fact], settled: Knowledge) -> dict[str, str]:
    """Item → fact, for the evidence items of each constraint ``settled`` makes live again
    (``found``: the facts as they were read): the items its supersession may have
    silenced."""
    again = {fact_id for fact_id, _ in unmarks(found, settled)}
    out: dict[str, str] = {}
    for u in settled.fact_updates:
        if u.fact.id in again and u.fact.is_constraint:
            out.update(dict.fromkeys(u.fact.evidence_item_ids, u.fact.id))
    return out


def unsilences(
    evidence: Mapping[str, str], latest: Mapping[str, HistoryEntry]
) -> list[tuple[str, str]]:
    """(item, fact) for each item of ``evidence`` (item → the constraint made live again)
    that its constraint's supersession silenced and nothing changed since: silent, its
    latest history entry (``latest``: of the silent ones) the write path's ``silenced``
    entry of a superseded constraint. An item a user silenced, or changed since, stays."""
    out: list[tuple[str, str]] = []
    for item_id, fact_id in sorted(evidence.items()):
        entry = latest.get(item_id)
        reason = (entry.after or {}).get("reason") if entry is not None else None
        if entry is not None and entry.action == "silenced" and reason == SILENCED_BY_SUPERSESSION:
            out.append((item_id, fact_id))
    return out


def profiles_stale(deletion: AliasDeletion, moved: Sequence[Moved]) -> bool:
    """Whether the deletion archives the profiles of ``deletion.profiles``: a fact moved,
    or the entity is merged back."""
    return bool(deletion.profiles) and (bool(moved) or deletion.retire is not None)


def relinked_ids(relinked: Sequence[Relinked]) -> list[str]:
    """The ids of the items a removal rewrote, sorted."""
    return sorted({before.item_id for before, _ in relinked})


def covered_ids(summaries: Sequence[SummaryRow]) -> list[str]:
    """Every item the summaries cover, sorted."""
    return sorted({c for _, _, made in summaries for c in made.get("covers", [])})


def corrections(
    summaries: Sequence[SummaryRow],
    sources: Mapping[str, list[str]],
    resummarise: Callable[[SummarySources], list[str] | None],
) -> list[Resummarised]:
    """Each summary whose entities ``resummarise`` changes, with its new entities;
    ``sources``: the stored entities of the covered items still stored, by id."""
    out: list[Resummarised] = []
    for summary_id, entities, made in summaries:
        covers = [c for c in made.get("covers", []) if c in sources]
        summary = SummarySources(
            summary_id, entities, str(made.get("group")), {c: sources[c] for c in covers}
        )
        after = resummarise(summary)
        if after is not None:
            out.append((summary, after))
    return out


def moves(
    facts: Sequence[Fact],
    names: Sequence[str],
    move: Callable[[Fact, Collection[str]], Fact | None],
) -> list[Moved]:
    """Each fact ``move`` changes (given the entity's ``names`` left), before and after."""
    left = frozenset(names)
    out: list[Moved] = []
    for f in facts:
        after = move(f, left)
        if after is not None:
            out.append((f, after))
    return out


def edge_moves(moved: Sequence[Moved]) -> list[tuple[str, str, str, str]]:
    """The graph edges of the facts moved: (fact id, ``source``/``target``, the entity
    before, after), for each side whose entity changed."""
    out: list[tuple[str, str, str, str]] = []
    for before, after in moved:
        sides = (
            ("source", before.subject_entity_id, after.subject_entity_id),
            ("target", before.object_entity_id, after.object_entity_id),
        )
        out += [
            (after.id, side, old, new) for side, old, new in sides if old and new and old != new
        ]
    return out
