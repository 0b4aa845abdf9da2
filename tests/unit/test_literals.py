"""A gated pattern answers exactly as its pattern: the literal test only skips texts that
hold no match (``cognimem.text.literals``)."""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cognimem.ingest.extract as extract
from cognimem.ingest.extract.clauses import prepare_clause, tidy, unify
from cognimem.text.literals import Gated, WordGated, needles
from cognimem.text.tokens import tokens

_DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data"

# constructs the reading must get right: lookarounds join their neighbours, an optional
# part, a repeat, scoped flags, classes, a back-reference, a character only non-ASCII
# text can match, a case-insensitive letter a non-ASCII one matches
_TRICKY = [
    r"\bfoo(?:bar|baz)s?\b",
    r"(?<![\w'])(?-i:i)(?=['\s,.!?;]|$)",
    r"a(?=b)bc|x{2,3}y",
    r"\b(?:I|we)(?:'d| would)\b(?! like\b)",
    r"(ab)\1|cd",
    r"[;:]|\s-\s|—",
    r"\bkid\b",
    r"(?:never|not)\s+(?:[a-z]+ed|went)\b",
    r"^(?:so|oh)\b|,\s*(?:always|never)\s*[.!]?$",
    r"\U0001F602|:p\b",
]


def _rule_patterns() -> list[re.Pattern[str]]:
    found: dict[int, re.Pattern[str]] = {}
    names = [i.name for i in pkgutil.iter_modules(extract.__path__, f"{extract.__name__}.")]
    for name in [*names, "cognimem.text.events"]:  # and the gated time-of-event patterns
        module = importlib.import_module(name)
        for value in vars(module).values():
            if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
                found[id(value)] = value
            elif isinstance(value, Gated | WordGated):
                found[id(value.regex)] = value.regex
    return list(found.values())


def _sentences() -> list[str]:
    texts: list[str] = []
    for path in sorted(_DATA.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip():
                texts.extend(_strings(json.loads(line)))
    return [v for t in texts for v in (t, t.lower(), t.upper())]


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    return []


def test_needles_are_what_a_match_must_hold() -> None:
    assert needles(re.compile(r"\bfoo(?:bar|baz)s?\b")) == {"foobar", "foobaz"}
    assert needles(re.compile(r"(?:I|we) used to", re.I)) == {"i used to", "we used to"}
    assert needles(re.compile(r"[;:]|—")) == {";", ":"}  # no ASCII text holds "—"
    assert needles(re.compile(r"\w+ing\b")) == {"ing"}
    assert needles(re.compile(r"\w+|x")) == {""}  # nothing known: every text is scanned


def test_a_text_without_a_needle_is_not_scanned() -> None:
    gated = Gated(re.compile(r"\b(I|we) no longer\b", re.I))
    assert not gated.may_match("I still live in Paris")
    assert gated.search("I still live in Paris") is None
    assert gated.sub("", "I still live in Paris") == "I still live in Paris"
    assert gated.split("I still live in Paris") == ["I still live in Paris"]
    assert list(gated.finditer("I still live in Paris")) == []
    assert gated.sub(r"\1", "We No Longer eat meat") == "We eat meat"


def test_a_text_beyond_ascii_is_always_scanned() -> None:
    # the Kelvin sign matches "k" case-insensitively: a lower-cased test would miss it
    gated = Gated(re.compile(r"\bkid\b", re.I))
    assert gated.may_match("just \u212aid")
    match = gated.search("just \u212aid")
    assert match is not None
    assert match.group() == "\u212aid"


@pytest.mark.parametrize("pattern", _TRICKY)
@settings(max_examples=300, deadline=None)
@given(
    text=st.text(alphabet=list("abcdfikoprswxyzIK;:-—' ,.!\u212a\U0001f602eglntvu"), max_size=24)
)
def test_gated_answers_as_the_pattern(pattern: str, text: str) -> None:
    regex = re.compile(pattern, re.I)
    gated = Gated(regex)
    raw = regex.search(text)
    found = gated.search(text)
    assert (found and found.span()) == (raw and raw.span())
    assert gated.sub("#", text) == regex.sub("#", text)
    assert gated.split(text) == regex.split(text)
    for start in (0, 1):  # a match gated too answers as the pattern's
        held = Gated(regex, gate_match=True).match(text, start)
        plain = regex.match(text, start)
        assert (held and held.span()) == (plain and plain.span())


def test_a_gated_match_skips_only_texts_without_a_needle() -> None:
    gated = Gated(re.compile(r"^(?P<rest>[a-z ]{1,40}?) ruins? it for me$", re.I), gate_match=True)
    assert gated.match("the rain is cold") is None
    assert gated.match("Rain RUINS it for me") is not None
    assert Gated(gated.regex).match("the rain is cold") is None


def test_every_rule_pattern_is_read_soundly() -> None:
    """Over the repository's labelled sentences (each also lower- and upper-cased; every
    15th, to keep the test short): no pattern of the rule extractor matches a text its
    needles rule out."""
    texts = [t for t in _sentences() if t.isascii()][::15]
    patterns = _rule_patterns()
    assert len(patterns) > 300
    assert len(texts) > 300
    for regex in patterns:
        gated = Gated(regex)
        for text in texts:
            if not gated.may_match(text):
                assert regex.search(text) is None, (regex.pattern[:80], text)


# how ``tidy`` read before its patterns were gated and its lone "i" reordered
_TIDY_BEFORE = [
    (re.compile(p, re.I), r)
    for p, r in (
        (r"(?<![\w'])(?-i:i)(?=['\s,.!?;]|$)", "I"),
        (r"\bim\b", "I'm"),
        (r"\bI am\b", "I'm"),
        (r"\bwe are\b", "we're"),
        (r"\b(I|we)'ve\b", r"\1 have"),
        (r"\b(I|we) have got\b", r"\1 have"),
        (r"\b(do|does|did|is|are|was|were|could|would|should|have|has) not\b", r"\1n't"),
        (r"\bcan ?not\b", "can't"),
        (
            r"\b(don|can|won|didn|doesn|isn|aren|wasn|weren|haven|hasn|shouldn|couldn|wouldn)t\b",
            r"\1't",
        ),
        (r"\bive\b", "I have"),
    )
]
_WORDS = ["i", "I", "im", "am", "we", "are", "'ve", "ive", "have", "got", "do", "not", "can",
          "cannot", "dont", "wont", "is", "\u212a", "\u0131", "'", ",", "x", "\t"]  # fmt: skip


@settings(max_examples=800, deadline=None)
@given(words=st.lists(st.sampled_from(_WORDS), max_size=10), glue=st.sampled_from([" ", "", "  "]))
def test_tidy_reads_as_before(words: list[str], glue: str) -> None:
    text = glue.join(words)
    before = text
    for pattern, replacement in _TIDY_BEFORE:
        before = pattern.sub(replacement, before)
    assert tidy(text) == before.strip()


def test_tidy_spells_contractions_one_way() -> None:
    assert tidy("i think im done, i've got it and i do not care ") == (
        "I think I'm done, I have it and I don't care"
    )


def _word_gates() -> list[WordGated]:
    names = [i.name for i in pkgutil.iter_modules(extract.__path__, f"{extract.__name__}.")]
    found = (vars(importlib.import_module(n)).values() for n in names)
    return [v for values in found for v in values if isinstance(v, WordGated)]


def test_every_word_gated_pattern_is_read_soundly() -> None:
    """No word-gated pattern of the rule extractor matches a labelled sentence (each also
    lower- and upper-cased) that holds none of its words."""
    gates = _word_gates()
    assert gates
    for gate in gates:
        for text in _sentences():
            if not gate.may_match(text):
                assert gate.regex.search(text) is None, (gate.pattern[:80], text)


_AROUND = ["I", "we", "I'm", "not", "can't", "have", "been", "of", "\u212aind", "SO", "love",
           ",", "\t", "\x1c", "x"]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(data=st.data(), glue=st.sampled_from([" ", ""]))
def test_a_word_gated_pattern_answers_as_the_pattern(data: st.DataObject, glue: str) -> None:
    # its own words (and their capitals) among subjects, white space and look-alikes
    gate = data.draw(st.sampled_from(_word_gates()))
    vocabulary = [*_AROUND, *sorted(gate.words)[:12], *(w.title() for w in sorted(gate.words)[:4])]
    text = glue.join(data.draw(st.lists(st.sampled_from(vocabulary), max_size=10)))
    raw = gate.regex.search(text)
    found = gate.search(text)
    assert (found and found.span()) == (raw and raw.span())
    assert gate.sub(r"#", text) == gate.regex.sub(r"#", text)


def test_a_word_gate_skips_only_texts_without_its_words() -> None:
    gate = WordGated(re.compile(r"\b(I|we)\s+(?:really|kind of)\s+", re.I), ["really", "kind"])
    assert gate.sub("", "I love it") == "I love it"
    assert not gate.may_match("I reallylove it")
    assert gate.sub(r"\1 ", "We KIND of love it") == "We love it"
    assert gate.may_match("I \u212aind of love it")  # not ASCII: always scanned


def test_a_gate_reads_each_text_as_its_own() -> None:
    """Gates that test texts in turn, the same text object or an equal one, from several
    threads: each answers as its pattern does on its own text (the lower-cased form a gate
    keeps for the next is never another text's)."""
    regexes = [re.compile(p, re.I) for p in (r"\bno longer\b", r"\bkid\b", r"\bused to\b")]
    gates = [Gated(r) for r in regexes]
    texts = ["I no longer eat meat", "just \u212aid", "we used to", "KID stuff", "nothing here"]
    texts += ["".join(t) for t in texts]  # equal texts, other objects

    def check(offset: int) -> None:
        for i in range(3000):
            text = texts[(i * 7 + offset) % len(texts)]
            for gate, regex in zip(gates, regexes, strict=True):
                found, raw = gate.search(text), regex.search(text)
                assert (found and found.span()) == (raw and raw.span()), (gate.pattern, text)

    with ThreadPoolExecutor(4) as pool:
        for done in [pool.submit(check, k) for k in range(4)]:
            done.result()


_UNIFY_BEFORE = (
    (re.compile(r"[’‘`´]"), "'"),
    (re.compile(r"[“”]"), '"'),
    (re.compile(r"\s+"), " "),
)


@settings(max_examples=600, deadline=None)
@given(
    st.text(alphabet=list("ab I'’‘`´“”\"\t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u2003\u3000.,"), max_size=16)
)
def test_unify_reads_as_before(text: str) -> None:
    before = text
    for pattern, replacement in _UNIFY_BEFORE:
        before = pattern.sub(replacement, before)
    assert unify(text) == before


@settings(max_examples=300, deadline=None)
@given(
    words=st.lists(
        st.sampled_from(["I", "my", "knee's", "KNEE'S", "it's", "'s", "s", "love", "Sam's", ","]),
        min_size=1,
        max_size=8,
    )
)
def test_a_clauses_trigger_words_drop_a_final_s(words: list[str]) -> None:
    # each word as written and, ending in "'s", without it ("knee's been": "knee")
    clause = prepare_clause(" ".join(["I", *words]), "evidence", datetime(2024, 3, 15, tzinfo=UTC))
    assert clause is not None
    found = tokens(" ".join(dict.fromkeys((clause.said, clause.base, clause.text))))
    assert clause.words == {*found, *(w[:-2] for w in found if w.endswith("'s"))}
