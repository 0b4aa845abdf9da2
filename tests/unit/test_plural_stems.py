"""``plural_stems``: the singulars a plural may stand for, in the order the table
readers try them, and the readers that share it."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.judged_kinds import judged_kind
from cognimem.text.noun_senses import first_class
from cognimem.text.noun_tables import plural_stems


@pytest.mark.parametrize(
    ("noun", "stems"),
    [
        ("cats", ("cat",)),
        ("boxes", ("boxe", "box")),
        ("puppies", ("puppie", "puppi", "puppy")),
        ("bus", ()),  # three letters: not read as a plural
        ("cat", ()),
        ("news", ("new",)),
    ],
)
def test_stems_most_likely_first(noun: str, stems: tuple[str, ...]) -> None:
    assert plural_stems(noun) == stems


def test_an_ie_singular_comes_before_a_y_one() -> None:
    # "cookies" are cookies (food), not "cooky" (a cook): a kind of thing judged, not
    # people; "rookies" are people ("rooky" is no word), so no stance is read
    assert first_class("cooky") == "person"
    assert judged_kind("Cookies are the worst.") == ("Cookies", False)
    assert judged_kind("Rookies are the worst.") is None
    assert judged_kind("Nannies are the worst.") is None  # "nannie" is no word: "nanny"
