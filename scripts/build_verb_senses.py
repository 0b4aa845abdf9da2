"""Writes ``src/cognimem/text/data/verb_senses.tsv.gz`` from WordNet 3.0 (Princeton
University; the WordNet 3.0 licence, in ``text/data/NOTICE``), as Debian's
``wordnet-base`` package installs it:

    apt-get install wordnet-base
    python scripts/build_verb_senses.py [/usr/share/wordnet]

One line per verb of up to four words ("cherish", "shy away from"): the verb, a tab,
the lexicographer files (WordNet's broad classes: ``verb.emotion``, ``verb.consumption``
...) of its senses, one letter each, most frequent sense first, each class once; then,
after a space, the verb's *kin*: the other one-word verbs of its most frequent sense and
of that sense's hypernyms ("detest": "hate", then "dislike"), up to six. Then one line
per irregular form of such a verb (``verb.exc``): the form, a tab, ``>`` and the verb.
What the letters mean is ``CLASSES`` in ``cognimem.text.verb_senses``.
"""

from __future__ import annotations

import re
from pathlib import Path

from wordnet_tables import exception_lines, wordnet_dir, write_table

OUT = Path(__file__).resolve().parent.parent / "src/cognimem/text/data/verb_senses.tsv.gz"
FIRST_FILE = 29  # verb.body; verb.weather is 43: letters a .. o
KIN = 6
_VERB = re.compile(r"[a-z][a-z-]*(?:_[a-z][a-z-]*){0,3}")
_WORD = re.compile(r"[a-z][a-z-]*")


def _synsets(data: Path) -> dict[str, tuple[int, list[str], list[str]]]:
    """Each synset's lexicographer file, lemmas and hypernyms."""
    out = {}
    for line in data.read_text("latin-1").splitlines():
        if line.startswith("  "):
            continue
        parts = line.split("|", 1)[0].split()
        count = int(parts[3], 16)
        lemmas = [parts[4 + 2 * i].lower() for i in range(count)]
        at = 4 + 2 * count
        hypernyms = [
            parts[at + 2 + 4 * k]
            for k in range(int(parts[at]))
            if parts[at + 1 + 4 * k] == "@" and parts[at + 3 + 4 * k] == "v"
        ]
        out[parts[0]] = (int(parts[1]), lemmas, hypernyms)
    return out


def build(wordnet: Path) -> list[str]:
    synsets = _synsets(wordnet / "data.verb")
    rows: dict[str, str] = {}
    for line in (wordnet / "index.verb").read_text("latin-1").splitlines():
        if line.startswith("  "):
            continue
        parts = line.split()
        lemma, count = parts[0], int(parts[2])
        if not _VERB.fullmatch(lemma):
            continue
        offsets = parts[-count:]
        letters = (chr(ord("a") + synsets[o][0] - FIRST_FILE) for o in offsets)
        _, first, hypernyms = synsets[offsets[0]]
        near = [*first, *(w for h in hypernyms for w in synsets[h][1])]
        kin = [w for w in dict.fromkeys(near) if w != lemma and _WORD.fullmatch(w)][:KIN]
        rows[lemma.replace("_", " ")] = " ".join(["".join(dict.fromkeys(letters)), *kin])
    lines = [f"{w}\t{c}" for w, c in sorted(rows.items())]
    lines += exception_lines(wordnet / "verb.exc", rows)
    return lines


def main() -> None:
    write_table(OUT, build(wordnet_dir()))


if __name__ == "__main__":
    main()
