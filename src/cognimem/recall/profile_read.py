"""The read's standing-profile step: the user's live constraints consolidated once per
version of their fact rows (``recall/profile.py``; kept on the store's copy of the rows
and carried to its patched copy while a write leaves the constraints as they were:
``RowsProfile``), and the entries that bear on this request — on the whole of it and,
for a request that asks for several things, on each of its parts (``recall/parts.py``)
— with what explain says of them."""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from datetime import datetime
from itertools import zip_longest

import numpy as np

from cognimem.models.knowledge import CONSTRAINT_CATEGORIES
from cognimem.models.packets import Explanation, PacketSections
from cognimem.recall.constraints import QueryView, cosines
from cognimem.recall.explain import placement
from cognimem.recall.parts import request_parts
from cognimem.recall.profile import (
    Profile,
    ProfileChoice,
    ProfileConfig,
    ProfileEntry,
    Standing,
)
from cognimem.recall.profile_choose import choose, part_config
from cognimem.recall.profile_consolidate import consolidate, stance_hubness
from cognimem.recall.steps import StepRun
from cognimem.store.fact_rows import FactRows
from cognimem.store.protocols import Store
from cognimem.text.areas import area_shares, thing_shares

__all__ = ["RowsProfile", "entries_in_turn", "explain_profile", "profile_entries", "rows_profile"]

_CONSTRAINT_VALUES = frozenset(c.value for c in CONSTRAINT_CATEGORIES)
_KEY = "profile"


@dataclass(frozen=True)
class RowsProfile:
    """The profile of one copy of the user's fact rows, kept on it (``FactRows.derived``)
    and carried to the copy a store patches it into after a write while the write left
    the user's live constraints as they were (``carried``). It serves only a read with
    the ``config`` and the area ``descriptions`` (the very array, or None) it was
    consolidated with (``fits``): another read's settings consolidate it again."""

    profile: Profile
    by_fact: dict[str, Standing]
    config: ProfileConfig
    descriptions: np.ndarray | None = field(compare=False)

    def fits(self, config: ProfileConfig, descriptions: np.ndarray | None) -> bool:
        """Whether this profile is the one ``config`` and ``descriptions`` would give."""
        return self.descriptions is descriptions and (
            self.config is config or self.config == config
        )

    def carried(self, before: FactRows, after: FactRows, changed: frozenset[str]) -> object:
        """This profile for ``after`` (``before`` patched, the rows ``changed`` read again
        or gone): the same entries, their rows renumbered, when ``after`` holds the
        constraints ``before`` held, in the same order, none of them changed, and a
        matrix of their embeddings as ``before`` did; None otherwise (consolidated again
        on first use)."""
        was = _constraint_rows(before)
        now = _constraint_rows(after)
        ids = [before.ids[i] for i in was]
        if ids != [after.ids[i] for i in now] or not changed.isdisjoint(ids):
            return None
        if _width(before) != _width(after):  # a profile without embeddings differs
            return None
        moved = dict(zip(was, now, strict=True))
        entries = tuple(
            replace(s, row=moved[s.row], rows=tuple(moved[r] for r in s.rows))
            for s in self.profile.entries
        )
        profile = replace(self.profile, entries=entries)
        return RowsProfile(profile, profile.by_fact(), self.config, self.descriptions)


def _constraint_rows(rows: FactRows) -> list[int]:
    return [i for i, c in enumerate(rows.categories) if c in _CONSTRAINT_VALUES]


def _width(rows: FactRows) -> int | None:
    return None if rows.matrix is None else rows.matrix.shape[1]


async def rows_profile(
    store: Store,
    tenant_id: str,
    rows: FactRows,
    config: ProfileConfig,
    descriptions: np.ndarray | None,
) -> RowsProfile:
    """The profile of ``rows`` (the user's live fact rows, newest first): the one kept on
    them when it was consolidated with this ``config`` and these ``descriptions``, else
    consolidated from their constraints and kept on them in its place."""
    found = rows.derived.get(_KEY)
    if isinstance(found, RowsProfile) and found.fits(config, descriptions):
        return found
    chosen = np.flatnonzero(rows.in_categories(_CONSTRAINT_VALUES))
    facts = await store.get_facts(tenant_id, [rows.ids[i] for i in chosen])
    by_id = {f.id: f for f in facts}
    kept = [int(i) for i in chosen if rows.ids[i] in by_id]  # the rows' newest-first order
    profile = consolidate([by_id[rows.ids[i]] for i in kept], kept, rows.matrix, config)
    if descriptions is not None and rows.matrix is not None and profile.entries:
        statements = rows.matrix[profile.columns.rows]
        if config.stance_hub:
            heads = statements[profile.columns.starts]
            profile = stance_hubness(profile, heads, descriptions, config.stance_hub)
        if config.area_affinity:
            shares = area_shares(statements, descriptions, config.area_temperature)
            profile = replace(profile, areas=shares)
        if config.thing_affinity:
            things = thing_shares(statements, descriptions, config.thing_temperature)
            profile = replace(profile, things=things)
    kept_profile = RowsProfile(profile, profile.by_fact(), config, descriptions)
    rows.derived[_KEY] = kept_profile
    return kept_profile


async def _profile(
    run: StepRun, descriptions: np.ndarray | None
) -> tuple[Profile, dict[str, Standing]]:
    rows, _ = await asyncio.shield(run.fact_rows())
    found = await rows_profile(
        run.store, run.scope.tenant_id, rows, run.sections.profile, descriptions
    )
    return found.profile, found.by_fact


async def profile_entries(run: StepRun, at: datetime) -> ProfileChoice:
    """The profile entries that bear on the read's request, best first (none for a
    request that is not a decision, or with the profile's cap at 0)."""
    config = run.sections.profile
    if config.max_tokens <= 0 or not run.analysis.decision or not run.config.sections:
        return ProfileChoice()
    wanted = config.area_affinity or config.thing_affinity or config.stance_hub
    descriptions = await run.area_descriptions() if wanted else None
    profile, by_fact = await _profile(run, descriptions)
    if not profile.entries:
        return ProfileChoice()
    rows, _ = await asyncio.shield(run.fact_rows())
    views = [(await run.view(), config)]
    parts = request_parts(run.analysis.query)
    if parts:  # each part of "a dinner and a flight" reaches its own constraints
        views += [(v, part_config(config)) for v in await run.part_views(parts)]
    choices = [
        choose(
            profile,
            cosines(view, rows),
            rows.tagged(view.area_tags),
            rows.tagged(view.domains),
            at,
            ranking,
            *_request_shares(view, descriptions, ranking),
        )
        for view, ranking in views
    ]
    return ProfileChoice(entries_in_turn(choices), by_fact, config.unstated_near)


def _request_shares(
    view: QueryView, descriptions: np.ndarray | None, config: ProfileConfig
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """How the request divides among the decision areas and among the things they list
    (None without its vector or the areas' descriptions, or when ``config`` gives that
    signal no weight: a request's parts rank without the things, ``part_config``)."""
    if view.vector is None or descriptions is None:
        return None, None
    vector = np.asarray(view.vector, dtype=np.float32)[None, :]
    areas = things = None
    if config.area_affinity:
        areas = area_shares(vector, descriptions, config.area_temperature)[0]
    if config.thing_affinity:
        things = thing_shares(vector, descriptions, config.thing_temperature)[0]
    return areas, things


def entries_in_turn(choices: list[list[ProfileEntry]]) -> list[ProfileEntry]:
    """The entries chosen for the whole request and for each of its parts, taken in
    turn (each one's best, then each one's second ...), each entry once: a part's best
    constraint is not pushed out of the sections' few places by another part's."""
    seen: set[str] = set()
    out: list[ProfileEntry] = []
    for rank in zip_longest(*choices):
        for e in rank:
            if e is not None and e.standing.fact.id not in seen:
                seen.add(e.standing.fact.id)
                out.append(e)
    return out


def explain_profile(
    choice: ProfileChoice,
    sections: PacketSections,
    dropped: dict[str, str],
    picked: Collection[str],
) -> list[Explanation]:
    """Why each profile entry is in the packet (or not); an entry one of whose
    statements a fact step ``picked`` is explained there."""
    placed = {e.id: name for name in ("must_follow", "consider") for e in getattr(sections, name)}
    out = []
    for e in choice.entries:
        if any(f.id in picked for f in e.standing.statements):
            continue
        fact_id = e.standing.fact.id
        out.append(
            Explanation(
                id=fact_id,
                type="fact",
                steps=["profile"],
                signals=dict(e.signals),
                score=e.score,
                outcome=placement(fact_id, placed, dropped),
                reason=e.reason(),
            )
        )
    return out
