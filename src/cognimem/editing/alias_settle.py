"""What a name split or merge back does to the supersessions between the facts it moves
and the facts it leaves, as a pure decision (``editing/aliases.py``).

While "Lizzie" was taken for Elizabeth Smith, a fact said of Lizzie and one said of
Elizabeth Smith shared a key, so the later one superseded the earlier ("Elizabeth Smith
lives in Boston." ended by "Lizzie lives in Paris."). That supersession rests on the
merge, so a split undoes it: a fact superseded by a fact now under another key (one of
the two moved, the other stayed) is live again — ``restored``: status ``active``, no
``superseded_by``, ``valid_to`` or ``recorded_to``, and the marks its supersession put
on its evidence items are taken off — unless its key already has a live fact of its
own (a later statement ended it too: it stays ended). A merge back undoes the split the
same way, with the rule the write path uses: a fact coming back live under a key where
a live fact that stayed says something else, the two are ordered by when each held
(``valid_from``, else when it was recorded) and the earlier is ``superseded`` by the
later, its evidence items marked no longer true; two that held from the same moment, or
say the same, are both left live. Each change raises the fact's ``revision`` and has a
history entry (actor ``api``, ``after.because`` the edit). A constraint's evidence items
are silenced rather than marked, as the write path does: a constraint made live again
gets back the items its supersession silenced (``unsilenced``: the store gives back
those still silent whose latest history entry is that silencing, ``store/relinking.py``),
and a constraint a merge back supersedes has its items silenced again.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from itertools import groupby

from cognimem.models import ItemStatus
from cognimem.models.fact_changes import (
    LIVE,
    SILENCED_BY_SUPERSESSION,
    fact_history,
    same_statement,
    silenced_entries,
    stale_evidence,
    superseded,
)
from cognimem.models.knowledge import Fact, FactStatus, HistoryEntry
from cognimem.store.arguments import Moved
from cognimem.store.types import FactUpdate, Knowledge

ACTOR = "api"


def settled(edit: str, now: datetime, moved: Sequence[Moved], facts: Sequence[Fact]) -> Knowledge:
    """The fact updates (and their history) that undo the supersessions an alias ``edit``
    (``alias_removed`` or ``alias_added``) leaves across two entities: ``moved``, the facts
    it moved (before, after); ``facts``, the same user's facts (any status, as they are
    after the move) under the keys those had or now have."""
    ids = {after.id for _, after in moved}
    out = Knowledge()
    changed: dict[str, Fact] = {}
    by_id = {f.id: f for f in facts}
    live = {f.key for f in facts if f.status in LIVE}
    for f in facts:
        by = by_id.get(f.superseded_by or "")
        crossed = by is not None and by.key != f.key and (f.id in ids or by.id in ids)
        if f.status is FactStatus.SUPERSEDED and crossed and f.key not in live:
            live.add(f.key)
            changed[f.id] = _restored(f)
    for _, same_key in groupby(sorted(facts, key=lambda f: f.key), key=lambda f: f.key):
        for old, new in _overlaps([changed.get(f.id, f) for f in same_key], ids):
            changed[old.id] = superseded(old, new.id, _held_from(new), now)
            _ended_evidence(out, old, new, edit, now)
    for fact_id, after in changed.items():
        before = by_id[fact_id]
        out.fact_updates.append(FactUpdate(after, before.revision))
        action = "restored" if after.status is FactStatus.ACTIVE else "superseded"
        entry = fact_history(after, action, before, now, None)
        after_state = (entry.after or {}) | {"because": edit}
        out.history.append(entry.model_copy(update={"actor": ACTOR, "after": after_state}))
    return out


def unsilenced(
    tenant_id: str, edit: str, now: datetime, items: Sequence[tuple[str, str]]
) -> Knowledge:
    """The ``unsilenced`` entry (actor ``api``, ``after.because`` the edit) of each item
    (with the constraint it is the evidence of) that the ``edit`` made active again:
    its constraint is live again and its supersession had silenced it."""
    return Knowledge(
        history=[
            HistoryEntry.new(
                tenant_id=tenant_id,
                target_type="item",
                target_id=item_id,
                action="unsilenced",
                actor=ACTOR,
                at=now,
                before={"status": ItemStatus.SILENT.value},
                after={"status": ItemStatus.ACTIVE.value, "because": edit, "fact_id": fact_id},
            )
            for item_id, fact_id in items
        ]
    )


def _ended_evidence(out: Knowledge, old: Fact, new: Fact, edit: str, now: datetime) -> None:
    """What ending ``old`` by ``new`` does to ``old``'s evidence items (but those
    ``new`` shares), as the write path does: a constraint's are silenced (a ``silenced``
    entry each, the write path's reason, so a later split gives them back), another
    fact's marked no longer true."""
    keep = set(new.evidence_item_ids)
    if old.is_constraint:
        items = [i for i in old.evidence_item_ids if i not in keep]
        out.silence_items += items
        out.history += silenced_entries(
            old.scope.tenant_id, items, now, SILENCED_BY_SUPERSESSION, actor=ACTOR, because=edit
        )
        return
    marks, notes = stale_evidence(old, new.id, _held_from(new), "superseded", now, keep=keep)
    out.stale_items += marks
    out.history += [n.model_copy(update={"actor": ACTOR}) for n in notes]


def _restored(f: Fact) -> Fact:
    return f.model_copy(
        update={
            "status": FactStatus.ACTIVE,
            "superseded_by": None,
            "valid_to": None,
            "recorded_to": None,
            "revision": f.revision + 1,
        }
    )


def _overlaps(same_key: list[Fact], ids: set[str]) -> list[tuple[Fact, Fact]]:
    """The (earlier, later) live pairs under one key that the edit brought together:
    one moved, the other not, saying different things, held from different moments."""
    live = [f for f in same_key if f.status in LIVE]
    pairs: list[tuple[Fact, Fact]] = []
    ended: set[str] = set()
    for a in live:
        for b in live:
            if a.id in ended or b.id in ended or (a.id in ids) == (b.id in ids):
                continue
            if same_statement(a, b) or _held_from(a) >= _held_from(b):
                continue
            pairs.append((a, b))
            ended.add(a.id)
    return pairs


def _held_from(f: Fact) -> datetime:
    return f.valid_from or f.recorded_at
