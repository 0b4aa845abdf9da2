"""Who is speaking: the scope's user, or someone else sharing the conversation.

Facts about the scope's user have one subject, ``user`` (``text.keys.SELF_SUBJECT``),
and one entity, whether a message carried the speaker's ``name`` or not: "I'm
vegetarian" said as Ada and "I am vegan now" said without a name are the same key, so
the second supersedes the first.

The user's entity is the one the user-specific alias ``user`` resolves to (marked with
the ``self`` property when created). The names the user speaks under are its aliases
with source ``user_stated``:

- a message without a name is the user's;
- a named message is the user's when the name resolves (exactly) to the user's entity;
- a name never seen before becomes the user's name when the user has none yet (the
  first one in a batch wins): it is recorded as an alias of the user's entity instead
  of becoming an entity of its own;
- any other name is another speaker in the same conversation (a group chat, a transcript
  of two people): their "I" facts are theirs, keyed by their name (``vivian:value:diet``).

A third person the user talks about ("my sister Ana") is never the user: their facts
are keyed and linked by their own name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from cognimem.ingest.entities import SELF_PROPERTY, Resolution, Resolved
from cognimem.models import Event, Scope
from cognimem.models.knowledge import Alias, AliasSource
from cognimem.store.arguments import KnowledgeView
from cognimem.store.protocols import KnowledgeStore
from cognimem.text.names import SELF_SUBJECT, normalize_name


@dataclass
class Speakers:
    """The user's entity and the (normalised) names the user spoke under."""

    self_id: str | None = None
    user_names: set[str] = field(default_factory=set)

    def is_user(self, event: Event) -> bool:
        """Whether ``event``'s author is the scope's user."""
        return event.name is None or normalize_name(event.name) in self.user_names

    def names_user(self, subject: str, resolved: Resolved) -> bool:
        """Whether a third-person ``subject`` ("Ada") is the user by one of their names."""
        found = resolved.by_name.get(normalize_name(subject))
        return (
            self.self_id is not None
            and found is not None
            and found.method in ("alias", "new")
            and found.entity_id == self.self_id
        )


async def identify(
    store: KnowledgeStore, scope: Scope, authors: Sequence[str], resolved: Resolved
) -> Speakers:
    """Decide which of ``authors`` (the names of a batch's messages, in order) are the
    scope's user; a newly claimed name is rewritten in ``resolved`` to point at the
    user's entity (and its would-be entity dropped)."""
    out = Speakers(self_id=resolved.entity_id(SELF_SUBJECT))
    if out.self_id is None:
        return out
    fresh = {e.id for e in resolved.new_entities}
    named: bool | None = False if out.self_id in fresh else None  # None: not looked up yet
    first: str | None = None  # how the user's name was first written in the batch
    for raw in authors:
        author = normalize_name(raw)
        found = resolved.by_name.get(author)
        if found is None:
            continue
        if found.method == "alias" and found.entity_id == out.self_id:
            out.user_names.add(author)
            first = first or raw.strip()
        elif found.method == "new":
            if named is None:
                named = await _has_name(store, scope, out.self_id)
            if not named:
                _claim(resolved, found, out.self_id, scope.user_id)
                out.user_names.add(author)
                first = first or raw.strip()
                named = True
    _mark_new_self(resolved, out.self_id, first)
    return out


async def _has_name(store: KnowledgeStore, scope: Scope, self_id: str) -> bool:
    """Whether the user's entity already has a name the user spoke under."""
    known = await store.find_aliases(
        KnowledgeView(scope.tenant_id, scope.namespace, scope.user_id), None
    )
    return any(a.entity_id == self_id and a.source is AliasSource.USER_STATED for a in known)


def _claim(resolved: Resolved, found: Resolution, self_id: str, user_id: str | None) -> None:
    dropped = found.entity_id
    resolved.new_entities = [e for e in resolved.new_entities if e.id != dropped]
    resolved.aliases = [a for a in resolved.aliases if a.entity_id != dropped]
    resolved.aliases.append(
        Alias(
            entity_id=self_id,
            alias=found.mention,
            user_id=user_id,
            source=AliasSource.USER_STATED,
            confidence=1.0,
        )
    )
    found.method, found.entity_id = "alias", self_id


def _mark_new_self(resolved: Resolved, self_id: str, name: str | None) -> None:
    """A user's entity created by this batch is marked, and named after the user when
    the batch says the user's name."""
    for i, e in enumerate(resolved.new_entities):
        if e.id == self_id:
            update: dict[str, object] = {"properties": {**e.properties, SELF_PROPERTY: True}}
            if name:
                update["name"] = name
            resolved.new_entities[i] = e.model_copy(update=update)
