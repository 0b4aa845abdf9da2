"""Which facts a name split moves (``editing/alias_facts.py``: ``moved``): those whose
role of the entity was read through the split-off name alone, by its words in the
statement or by a reference resolved to it; never one that names the entity otherwise."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from cognimem.editing.alias_facts import moved, read_as
from cognimem.editing.aliases import split_off
from cognimem.models import Scope
from cognimem.models.knowledge import Entity, EntityType, Fact, FactCategory

NOW = datetime(2026, 11, 30, tzinfo=UTC)
LIZ = Entity(
    id="ent_liz", tenant_id="t1", namespace="default", user_id="u1", name="Elizabeth Smith",
    type=EntityType.PERSON, created_at=NOW,
)  # fmt: skip
TWIN = split_off(LIZ, "lizzie", "u1", NOW)
NAMES = {"elizabeth smith", "elizabeth", "liz"}  # the names she keeps


def fact(text: str, *, subject: bool = True, **extra: Any) -> Fact:
    about = {"subject": "elizabeth_smith", "subject_entity_id": LIZ.id}
    mine = {"subject": "user", "subject_entity_id": "ent_me", "object_entity_id": LIZ.id}
    return Fact(
        id="fct_1", scope=Scope(tenant_id="t1", user_id="u1"),
        key="elizabeth_smith:occupation:employer" if subject else "user:relationship:sister",
        predicate="employer", category=FactCategory.OCCUPATION, value="Acme", text=text,
        last_validated_at=NOW, recorded_at=NOW, **(about if subject else mine) | extra,
    )  # fmt: skip


def move(f: Fact) -> Fact | None:
    return moved(LIZ.id, "lizzie", TWIN, f, NAMES)


def test_a_subject_named_by_the_split_off_name_alone_moves_with_its_key() -> None:
    f = fact("Lizzie's new job is at Acme.", object_entity_id="ent_acme")
    after = move(f)
    assert after is not None
    assert (after.key, after.subject, after.subject_entity_id) == (
        "lizzie:occupation:employer", "lizzie", TWIN.id,
    )  # fmt: skip
    assert (after.object_entity_id, after.revision, after.text) == ("ent_acme", 2, f.text)


def test_an_object_moves_alone_and_the_user_s_key_stays() -> None:
    after = move(fact("Lizzie is my sister.", subject=False))
    assert after is not None
    assert (after.key, after.subject_entity_id, after.object_entity_id) == (
        "user:relationship:sister", "ent_me", TWIN.id,
    )  # fmt: skip


def test_a_pronoun_read_as_the_name_counts_as_the_name() -> None:
    link = {"said": "She", "name": "Lizzie", "evidence": "she: the latest woman named"}
    assert move(fact("She works at Acme.", provenance={"coreference": [link]})) is not None
    other = link | {"name": "Elizabeth Smith"}
    assert move(fact("She works at Acme.", provenance={"coreference": [other]})) is None


def test_a_fact_naming_her_otherwise_or_by_no_name_stays() -> None:
    for text in (
        "Elizabeth Smith works at Acme.",  # her own name
        "Lizzie, that is Liz, works at Acme.",  # another of her names too
        "She works at Acme.",  # a reference whose reading was not kept
        "Lizzies works at Acme.",  # another word
        "elizabeth_smith occupation employer: Acme",
    ):
        assert move(fact(text)) is None, text


def test_the_entity_on_both_sides_or_the_user_s_own_fact_stays() -> None:
    assert move(fact("Lizzie works with Lizzie.", object_entity_id=LIZ.id)) is None
    own = fact("Lizzie is me.").model_copy(update={"subject": "user"})
    assert move(own) is None
    assert move(fact("Lizzie works at Acme.", subject_entity_id="ent_other")) is None


def test_names_are_read_as_whole_words_in_order() -> None:
    f = fact("Mary Lizzie Smith met Elizabeth-Smith.")
    assert read_as(f, {"lizzie", "elizabeth smith", "lizzie smith", "smith mary"}) == {
        "lizzie", "elizabeth smith", "lizzie smith",
    }  # fmt: skip
