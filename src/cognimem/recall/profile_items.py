"""The memories behind the constraints the standing profile left out (pure).

On a decision the profile ranks every live constraint of the user against the request
and carries the few that bear on it (``recall/profile_choose.py``). The message a
constraint it left out was drawn from is still a memory the read ranks, and a cosine
just over the evidence floor (``RecallConfig.min_similarity``) brought it back as a
plain item: among ten preferences on ten topics, "We prefer weekend trips close to
home." (0.28) came in for "Compare these two inns for my weekend in Vermont." beside
the profile's choice — another preference shown, for the closeness the profile had
already weighed and found wanting.

So, when the profile carried something, such a memory keeps its place in the items
only with evidence the profile did not weigh, or closeness it cannot have overruled:

- a content word shared with the request, a fact the key lookup found, or the graph
  (``recall/conversation/evidence.py``);
- it is one of the ``ProfileConfig.declined_near`` memories nearest the request in
  meaning (the plain dense answer keeps its place), or
- it is at least as close to the request as the closest memory behind an entry the
  profile carried (the profile then left it out for its crowding, not its closeness).

A memory **no constraint was drawn from** — a preference the write path did not record
as one, small talk — is put to the same test, with the ``ProfileConfig.unstated_near``
memories nearest the request kept (4, looser: the profile never weighed it). Among ten
preferences on ten topics "Calm sunset cruises are my idea of a perfect evening." (no
constraint recorded) came in as an item for a lunch, a birthday and a massage request
beside the profile's choice; in a whole conversation the chat just over the floor held
the ten items' places above the cue's message.

A memory a section shows (``behind``) is not touched, nor a read without a vector list
(meaning not judged), nor a request the profile carried nothing for.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from cognimem.recall.conversation.evidence import shared_word
from cognimem.recall.profile import ProfileChoice
from cognimem.recall.rerank import Ranked

__all__ = ["LEFT_OUT", "UNWEIGHED", "declined_items", "unstated_items", "without_declined"]

LEFT_OUT = (
    "dropped: drawn from a constraint the standing profile left out, with no evidence "
    "of its own (no shared word, not among the nearest in meaning)"
)
UNWEIGHED = (
    "dropped: no constraint was drawn from it, and beside the standing profile's choice it "
    "has no evidence of its own (no shared word, not among the nearest in meaning)"
)


def declined_items(
    choice: ProfileChoice, behind: Collection[str], among: set[str] | None = None
) -> frozenset[str]:
    """The memories the constraints the profile did not carry were drawn from, but for
    those a section shows (``behind``); ``among``: only these memories are asked about
    (a read asks about the few it kept, not every constraint's)."""
    carried = {e.standing.fact.id for e in choice.entries}
    out: set[str] = set()
    for standing in choice.by_fact.values():
        if standing.fact.id in carried:
            continue
        for f in standing.statements:
            out.update(
                f.evidence_item_ids if among is None else among.intersection(f.evidence_item_ids)
            )
    return frozenset(out.difference(behind))


def unstated_items(
    choice: ProfileChoice, behind: Collection[str], among: Collection[str]
) -> frozenset[str]:
    """The memories of ``among`` no constraint of the user was drawn from, but for those
    a section shows (``behind``)."""
    drawn = {i for s in choice.by_fact.values() for f in s.statements for i in f.evidence_item_ids}
    return frozenset(set(among).difference(drawn, behind))


def without_declined(
    kept: list[Ranked],
    ranked: Sequence[Ranked],
    choice: ProfileChoice,
    behind: Collection[str],
    terms: Sequence[str],
    near: int | None,
) -> tuple[list[Ranked], dict[str, str]]:
    """``kept`` without the memories of constraints the profile left out (``near``
    nearest kept) and the memories no constraint was drawn from
    (``choice.unstated_near``) that have no evidence of their own (see the module), and
    why each of those is dropped."""
    if not choice.entries:
        return kept, {}
    among = {r.item.id for r in kept}
    judged: dict[str, tuple[int, str]] = {}
    if choice.unstated_near is not None:
        judged.update(
            dict.fromkeys(unstated_items(choice, behind, among), (choice.unstated_near, UNWEIGHED))
        )
    if near is not None:
        judged.update(dict.fromkeys(declined_items(choice, behind, among), (near, LEFT_OUT)))
    closeness = {r.item.id: r.raw["vector"] for r in ranked if "vector" in r.raw}
    if not judged or not closeness:  # nothing to judge, or no vector list: meaning not judged
        return kept, {}
    carried = {i for e in choice.entries for i in e.standing.item_ids()}
    bar = max((c for i, c in closeness.items() if i in carried), default=None)
    if bar is None:
        return kept, {}
    order = sorted(closeness, key=lambda i: -closeness[i])
    out: list[Ranked] = []
    dropped: dict[str, str] = {}
    for r in kept:
        item = r.item.id
        if item in judged and _no_evidence(
            r, order[: judged[item][0]], closeness.get(item, bar) < bar, terms
        ):
            dropped[item] = judged[item][1]
            continue
        out.append(r)
    return out, dropped


def _no_evidence(r: Ranked, nearest: Sequence[str], below: bool, terms: Sequence[str]) -> bool:
    """Whether a judged memory has none of its own: not among the ``nearest``, less
    close than the carried entries' memories (``below``; one the vector search did not
    return is not judged), no fact, no graph, no word shared with the request."""
    return (
        r.item.id not in nearest
        and below
        and not (r.signals.get("fact") or r.signals.get("graph"))
        and shared_word(r.item.text, terms) is None
    )
