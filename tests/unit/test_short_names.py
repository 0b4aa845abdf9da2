"""Which words of a message may shorten a known person's first name ("Dom"), and which
aliases they open: the funnel reads the conversation before a message only then (or
for a pronoun or a role word)."""

from __future__ import annotations

from cognimem.ingest.extract.coref import short_forms
from cognimem.ingest.short_names import opened_by
from cognimem.models.knowledge import Alias, AliasSource
from cognimem.text.names import shortens


def alias(entity_id: str, name: str) -> Alias:
    return Alias(entity_id=entity_id, alias=name, user_id="u", source=AliasSource.EXACT)


def test_capitalised_words_that_may_be_short_forms() -> None:
    assert short_forms("Dom got promoted to director.") == {"dom"}
    assert short_forms("Rob and Liz went to Rome.") == {"rob", "liz"}
    # pronouns, function words and common nouns that are no first name are not names
    assert short_forms("She said Can you call me? The Park was closed.") == set()
    assert short_forms("no capital here") == set()
    assert short_forms("Al is back.") == set()  # two letters: too short to tell


def test_a_word_opens_the_first_word_of_an_alias_strictly() -> None:
    aliases = [
        alias("e1", "dominic price"),
        alias("e1", "dominic"),
        alias("e2", "dominique roy"),
        alias("e3", "dom"),  # the same word: not a longer name it shortens
        alias("e4", "london"),
    ]
    assert opened_by({"dom"}, aliases) == {"dom": {"e1", "e2"}}
    assert opened_by({"domi", "lon"}, aliases) == {"domi": {"e1", "e2"}, "lon": {"e4"}}
    assert opened_by({"ben"}, aliases) == {}


def test_a_short_form_of_a_full_names_first_name() -> None:
    assert shortens("Dom", "Dominic Price")
    assert shortens("dom", "  dominic  price ")
    assert not shortens("Dominic", "Dominic Price")  # the first name itself
    assert not shortens("Do", "Dominic Price")  # too short
    assert not shortens("Dom", "Dominic")  # no full name to link it to
    assert not shortens("she", "Sarah Jones")
    assert not shortens("Price", "Dominic Price")
    assert not shortens("my boss", "Dominic Price")
