"""Memory people share, in a user's read: the read's agent's, the namespace's and the
organisation's facts and preferences beside the user's own, with precedence for the
same key — the user's own over the agent's, the agent's over the namespace's, the
namespace's over the organisation's. A fact overridden this way is not scored at all;
``explain`` says which fact overrode it.

Facts belong to (tenant, namespace, user): the shared ones are those of no user — in
the read's namespace (among them an agent's carry its ``agent_id``; another agent's are
never read) and in ``ORGANISATION_NAMESPACE``, the organisation's. A read with a time
filter (``as_of``, ``as_of_recorded``, a period the question names) applies the same
precedence to the facts the filter admits (``timed_shared``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from cognimem.models import Scope
from cognimem.models.knowledge import Fact
from cognimem.models.packets import Explanation
from cognimem.models.scope import LEVELS
from cognimem.store.protocols import Store
from cognimem.store.types import FactQuery, FactRows, joined

MAX_TIMED_LOOKUP = 5_000  # the shared facts of the looked-up keys a timed read sees


def level_of(scope: Scope) -> str:
    """Whose memory a scope is: ``user``, ``agent``, ``namespace`` or ``organisation``."""
    return scope.level


@dataclass(frozen=True)
class Override:
    """``winner``'s level takes precedence over ``loser``'s for the same key."""

    winner: Fact
    loser: Fact

    def reason(self) -> str:
        f = self.loser
        return f"overrides the {level_of(f.scope)}'s {f.key} = {f.value!r} ({f.id})"


@dataclass
class SharedFacts:
    """A read's fact rows with the shared ones that no closer level overrides."""

    rows: FactRows
    overrides: list[Override] = field(default_factory=list)


def _reaches(fact: Fact, scope: Scope) -> bool:
    """Whether a fact of no user reaches a read of ``scope``: the namespace's and the
    organisation's always, an agent's only a read made with that agent."""
    return fact.scope.agent_id is None or fact.scope.agent_id == scope.agent_id


def _closest_first(facts: Sequence[Fact]) -> list[Fact]:
    """The agent's facts, then the namespace's, then the organisation's (each newest
    first, as given)."""
    return sorted(facts, key=lambda f: LEVELS.index(f.scope.level))


async def shared_facts(store: Store, scope: Scope, own: FactRows, rows: FactRows) -> SharedFacts:
    """``own`` (the user's rows) followed by those of the live shared facts ``rows``
    (the rows of no user) that reach the read and that no closer level overrides. A
    read with no shared facts asks the store nothing more."""
    if scope.user_id is None or not rows.ids:
        return SharedFacts(own)
    shared = [f for f in await store.get_facts(scope.tenant_id, rows.ids) if _reaches(f, scope)]
    by_key, overrides = _by_key(_closest_first(shared))
    if by_key:
        mine = await store.find_facts(
            FactQuery(scope.tenant_id, scope.namespace, scope.user_id, keys=tuple(by_key))
        )
        overrides += _overridden(by_key, mine)
    if not by_key and not overrides:
        return SharedFacts(own)
    kept = {f.id for f in by_key.values()}
    extra = await store.fact_rows_by_ids(scope.tenant_id, [i for i in rows.ids if i in kept])
    return SharedFacts(joined(own, extra), overrides)


def timed_shared(
    scope: Scope, own: Sequence[Fact], shared: Sequence[Fact]
) -> tuple[list[Fact], list[Override]]:
    """A timed read's precedence (``recall/fact_time.py``), on facts the time filter
    admitted already: of ``shared`` (facts of no user, newest first) those that reach
    the read and that no closer level's admitted fact of the same key overrides —
    ``own``, the user's, over the agent's over the namespace's over the
    organisation's, as a current read."""
    by_key, overrides = _by_key(_closest_first([f for f in shared if _reaches(f, scope)]))
    overrides += _overridden(by_key, own)
    return list(by_key.values()), overrides


def _overridden(by_key: dict[str, Fact], mine: Sequence[Fact]) -> list[Override]:
    """Takes out of ``by_key`` each key one of the user's facts ``mine`` holds; the
    overrides that says (none to look for: ``mine`` is not walked, up to 500 facts
    on a timed read)."""
    out: list[Override] = []
    if not by_key:
        return out
    for fact in mine:
        if fact.key in by_key:
            out.append(Override(fact, by_key.pop(fact.key)))
    return out


def _by_key(facts: Sequence[Fact]) -> tuple[dict[str, Fact], list[Override]]:
    """The first fact of each key; each later one is overridden by it."""
    by_key: dict[str, Fact] = {}
    overrides: list[Override] = []
    for f in facts:
        if f.key in by_key:
            overrides.append(Override(by_key[f.key], f))
        else:
            by_key[f.key] = f
    return by_key, overrides


async def shared_lookup(
    store: Store,
    scope: Scope,
    keys: tuple[str, ...],
    own: list[Fact],
    admits: Callable[[Fact], bool] | None = None,
) -> list[Fact]:
    """``own`` (the user's facts an exact key lookup found) with the shared facts of
    those keys that reach the read and that no closer level holds. With ``admits`` (a
    timed read's filter), the shared facts of any status it admits."""
    if scope.user_id is None or not keys:
        return own
    found = []
    for namespace in (scope.namespace, scope.organisation().namespace):
        query = FactQuery(scope.tenant_id, namespace, None, keys=keys)
        if admits is not None:
            query = replace(query, statuses=None, limit=MAX_TIMED_LOOKUP)
        found += [f for f in await store.find_facts(query) if admits is None or admits(f)]
    by_key, _ = _by_key(_closest_first([f for f in found if _reaches(f, scope)]))
    held = {f.key for f in own}
    return [*own, *(f for k, f in by_key.items() if k not in held)]


def override_explanations(
    overrides: Sequence[Override], explained: list[Explanation]
) -> list[Explanation]:
    """``explained`` with each override said: the winning fact's reason names the fact
    it overrides ("overrides the namespace's user:preference:units = 'metric'"), and
    each overridden fact is listed as dropped for it."""
    reasons: dict[str, list[str]] = {}
    for o in overrides:
        reasons.setdefault(o.winner.id, []).append(o.reason())
    out = [
        e.model_copy(update={"reason": "; ".join(x for x in [e.reason, *reasons[e.id]] if x)})
        if e.type == "fact" and e.id in reasons
        else e
        for e in explained
    ]
    for o in overrides:
        out.append(
            Explanation(
                id=o.loser.id,
                type="fact",
                steps=["facts"],
                signals={},
                score=0.0,
                outcome=f"dropped: overridden by the {level_of(o.winner.scope)}'s fact"
                f" {o.winner.id}",
                reason=f"the {level_of(o.winner.scope)}'s {o.winner.value!r} wins over the"
                f" {level_of(o.loser.scope)}'s {o.loser.value!r} for {o.loser.key}",
            )
        )
    return out
