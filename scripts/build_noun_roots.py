"""Writes ``src/cognimem/text/data/noun_roots.tsv.gz`` from WordNet 3.0 (Princeton
University; the WordNet 3.0 licence, in ``text/data/NOTICE``), as Debian's
``wordnet-base`` package installs it:

    apt-get install wordnet-base
    python scripts/build_noun_roots.py [/usr/share/wordnet]

One line per noun (words joined by spaces) of which WordNet says one of three things,
by where its senses sit under a few broad synsets (their hypernym closure):

- ``r``: its most frequent sense as a person is a role a person holds in the literal
  world: a line of work (``w``), a relative, a spouse or partner, a friend or peer, a
  young person or an adult, a woman or a man, an eater (a vegetarian), a believer, an
  inhabitant, a patient, a student, a scholar or a thinker ("historian",
  "coordinator"), a maker;
- ``w``: its most frequent sense as a kind of person (written in lower case or as an
  acronym: not "Samuel Barber", one person) is a line of work: a worker, a
  professional, a clergyman, an entertainer, a businessperson, an officer of the law,
  an administrator, an official, a scientist or a civil authority ("marine",
  "hairdresser", "referee", "chemist", "mayor", "barber"; not "teenager", "widow",
  "Darwin"); a scientist and a civil authority are roles (``r``) too;
- ``j``: at least half of its senses as a person are a judgement of people (a good or
  a bad person, an unpleasant or unwelcome one, a simpleton, an intellectual, a
  compulsive, an oppressor), a ruler, or a being of belief or fiction ("a saint",
  "a tyrant", "a genius", "a gremlin");
- ``k``: its most frequent sense is a field of knowledge ("math", "chemistry");
- ``n``: one of its senses is a natural language ("spanish", "mandarin"; not "sarcasm",
  "dog");
- ``o``: its most frequent sense is a vehicle, a garment, furniture or a part of the
  body, and its gloss does not say one lives in it ("car", "sweatpants", "couch",
  "head"; not "motor home", "houseboat");
- ``u``: its most frequent sense is an ordeal, a thing no one wants to undergo: ill
  health, a disorder or a symptom, discomfort, pain as a feeling, fatigue, an allergy,
  a misfortune, a difficulty or a trouble, a nuisance, a wait or a delay, a levy or a
  debt ("hangover", "bite", "flu", "delay", "waiting", "tax"), written in lower case
  (not an acronym: "AIDS") and with fewer than half of its first three senses a work of
  words, a made thing, a food, a plant or an animal ("tragedy" is as often a play).

What the letters are used for is :mod:`cognimem.text.noun_roots`.
"""

from __future__ import annotations

import re
from pathlib import Path

from wordnet_tables import wordnet_dir, write_table

OUT = Path(__file__).resolve().parent.parent / "src/cognimem/text/data/noun_roots.tsv.gz"
PERSON_FILE = 18  # noun.person
# (lemma, sense number) of the synsets whose hyponyms each letter names
WORK = (
    ("worker", 1), ("professional", 1), ("clergyman", 1), ("entertainer", 1),
    ("businessperson", 1), ("lawman", 1), ("administrator", 1), ("official", 1),
    ("official", 2),
)  # fmt: skip
# ... and of work WordNet puts elsewhere, said of a kind of person only ("chemist", not
# "Darwin"): a scientist, a civil authority ("mayor")
MORE_WORK = (("scientist", 1), ("civil_authority", 1))
ROLES = (
    *WORK, ("relative", 1), ("juvenile", 1), ("adult", 1), ("spouse", 1), ("lover", 1),
    ("female", 2), ("male", 2), ("eater", 1), ("religious_person", 1), ("inhabitant", 1),
    ("sick_person", 1), ("student", 1), ("friend", 1), ("peer", 1), ("scholar", 1),
    ("thinker", 2), ("creator", 2),
)  # fmt: skip
JUDGEMENTS = (
    ("good_person", 1), ("bad_person", 1), ("unpleasant_person", 1), ("unwelcome_person", 1),
    ("simpleton", 1), ("ruler", 1), ("intellectual", 1), ("compulsive", 1), ("oppressor", 1),
    ("spiritual_being", 1), ("imaginary_being", 1),
)  # fmt: skip
FIELDS = (("knowledge_domain", 1),)
LANGUAGES = (("natural_language", 1),)
NO_HOMES = (("vehicle", 1), ("clothing", 1), ("furniture", 1), ("body_part", 1))
ORDEALS = (
    ("pathological_state", 1), ("disorder", 1), ("symptom", 1), ("discomfort", 1), ("pain", 2),
    ("fatigue", 1), ("hypersensitivity", 1), ("misfortune", 1), ("misfortune", 2),
    ("difficulty", 3), ("trouble", 1), ("negative_stimulus", 1), ("wait", 1), ("wait", 2),
    ("levy", 1), ("liability", 2),
)  # fmt: skip
# the lexicographer files of what one may like for itself: a work of words, a made
# thing, a food, a plant, an animal
LIKEABLE_FILES = frozenset({10, 6, 13, 20, 5})
_LIVED_IN = re.compile(r"dwelling|housing|camping|\blive|\bliving|resid", re.IGNORECASE)


def _synsets(wordnet: Path) -> dict[str, tuple[int, list[str], str, list[str]]]:
    """Each noun synset's offset: its lexicographer file, its hypernyms' offsets, its
    gloss and its words as written."""
    out = {}
    for line in (wordnet / "data.noun").read_text("latin-1").splitlines():
        if line.startswith("  "):
            continue
        head, _, gloss = line.partition(" | ")
        parts = head.split()
        count = int(parts[3], 16)
        i = 4 + 2 * count
        hypernyms = []
        for _ in range(int(parts[i])):
            symbol, offset, pos = parts[i + 1 : i + 4]
            if symbol in {"@", "@i"} and pos == "n":
                hypernyms.append(offset)
            i += 4
        words = [parts[4 + 2 * k] for k in range(count)]
        out[parts[0]] = (int(parts[1]), hypernyms, gloss, words)
    return out


def _index(wordnet: Path) -> dict[str, list[str]]:
    """Each noun lemma's synsets, most frequent sense first."""
    out = {}
    for line in (wordnet / "index.noun").read_text("latin-1").splitlines():
        if not line.startswith("  "):
            parts = line.split()
            out[parts[0]] = parts[-int(parts[2]) :]
    return out


def build(wordnet: Path) -> list[str]:
    synsets, index = _synsets(wordnet), _index(wordnet)

    def roots(spec: tuple[tuple[str, int], ...]) -> set[str]:
        return {index[lemma][n - 1] for lemma, n in spec}

    closures: dict[str, set[str]] = {}

    def above(offset: str) -> set[str]:
        if offset not in closures:
            seen = {offset}
            for h in synsets[offset][1]:
                seen |= above(h)
            closures[offset] = seen
        return closures[offset]

    roles, judgements, fields = roots(ROLES), roots(JUDGEMENTS), roots(FIELDS)
    work, more_work = roots((*WORK, *MORE_WORK)), roots(MORE_WORK)
    no_homes, languages, ordeals = roots(NO_HOMES), roots(LANGUAGES), roots(ORDEALS)
    lines = []
    for lemma, offsets in sorted(index.items()):
        people = [o for o in offsets if synsets[o][0] == PERSON_FILE]
        letters = ""
        # the most frequent sense of a kind of person, not of one person ("Samuel Barber")
        kind = next((above(o) for o in people if _common(lemma, synsets[o][3])), set())
        if people and not (roles.isdisjoint(above(people[0])) and more_work.isdisjoint(kind)):
            letters += "r"
        if not work.isdisjoint(kind):
            letters += "w"
        judged = sum(not judgements.isdisjoint(above(o)) for o in people)
        if people and 2 * judged >= len(people):
            letters += "j"
        if not fields.isdisjoint(above(offsets[0])):
            letters += "k"
        if any(not languages.isdisjoint(above(o)) for o in offsets):
            letters += "n"
        first = synsets[offsets[0]]
        if not no_homes.isdisjoint(above(offsets[0])) and not _LIVED_IN.search(first[2]):
            letters += "o"
        if _is_ordeal(lemma, offsets, synsets) and not ordeals.isdisjoint(above(offsets[0])):
            letters += "u"
        if letters and lemma.replace("_", "").replace("-", "").isalpha():
            lines.append(f"{lemma.replace('_', ' ')}\t{letters}")
    return lines


def _common(lemma: str, written: list[str]) -> bool:
    """Whether ``lemma`` is among a synset's words as ``written`` in lower case or as an
    acronym: a kind of person ("chemist", "CEO"), not one person ("Bell", "Darwin")."""
    return any(w.lower() == lemma and (w == lemma or w.isupper()) for w in written)


def _is_ordeal(
    lemma: str, offsets: list[str], synsets: dict[str, tuple[int, list[str], str, list[str]]]
) -> bool:
    """Whether ``lemma`` may be an ordeal by how it is written and its other senses (see
    ``u`` above): in lower case in its first sense, and fewer than half of its first
    three senses something one may like for itself."""
    written = [w for w in synsets[offsets[0]][3] if w.lower() == lemma]
    if not written or written[0] != lemma:
        return False
    likeable = sum(synsets[o][0] in LIKEABLE_FILES for o in offsets[:3])
    return 2 * likeable < len(offsets[:3])


def main() -> None:
    write_table(OUT, build(wordnet_dir()))


if __name__ == "__main__":
    main()
