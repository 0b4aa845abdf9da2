"""A family member's constraint said with its consequence for the speaker is the
speaker's household rule against the thing (issue 29 item 1); the same constraint
alone, a taste, a question and a named person's allergy are not. Sentences written for
these tests."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.kin_constraints import kin_constraint
from cognimem.models.extraction import ExtractionInput
from cognimem.models.knowledge import FactCategory
from tests.unit.test_choice_extraction import EXTRACTOR, WHEN, constraints


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("My husband is allergic to shellfish, so the paella has to be chicken.", "shellfish"),
        ("Our son can't have dairy, so we buy oat milk.", "dairy"),
        ("My mother is lactose intolerant, so dessert is sorbet.", "lactose"),
        ("My kids can't handle spicy food, so we cook mild.", "spicy food"),
    ],
)
def test_a_family_constraint_with_its_consequence(text: str, value: str) -> None:
    assert kin_constraint(text) == [value]
    assert (FactCategory.POLICY, value, False) in constraints(text)


@pytest.mark.parametrize(
    "text",
    [
        "My husband is allergic to shellfish.",
        "My son won't eat peas, so I hide them in sauce.",
        "My sister is allergic to cats, so?",
        "Is my son allergic to dairy, so that explains it?",
    ],
)
def test_no_family_rule(text: str) -> None:
    assert kin_constraint(text) == []
    facts = EXTRACTOR.extract_one(ExtractionInput(text=text, occurred_at=WHEN)).facts
    assert not [f for f in facts if f.predicate == "family"]
