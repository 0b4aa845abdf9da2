"""Writes ``src/cognimem/text/data/noun_senses.tsv.gz`` from WordNet 3.0 (Princeton
University; the WordNet 3.0 licence, in ``text/data/NOTICE``), as Debian's
``wordnet-base`` package installs it:

    apt-get install wordnet-base
    python scripts/build_noun_senses.py [/usr/share/wordnet]

One line per single-word noun: the word, a tab, and the lexicographer files (WordNet's
broad classes: ``noun.person``, ``noun.animal``, ``noun.artifact`` ...) of its senses,
one letter each, most frequent sense first, each class once. Then one line per
irregular plural of such a noun (``noun.exc``): the plural, a tab, ``>`` and the noun.
What the letters mean is ``CLASSES`` in ``cognimem.text.noun_senses``.
"""

from __future__ import annotations

import re
from pathlib import Path

from wordnet_tables import exception_lines, wordnet_dir, write_table

OUT = Path(__file__).resolve().parent.parent / "src/cognimem/text/data/noun_senses.tsv.gz"
FIRST_FILE = 3  # noun.Tops; noun.time is 28: letters a .. z
_WORD = re.compile(r"[a-z][a-z-]*")


def _files(data: Path) -> dict[str, int]:
    out = {}
    for line in data.read_text("latin-1").splitlines():
        if not line.startswith("  "):
            offset, lex_file, *_ = line.split(maxsplit=2)
            out[offset] = int(lex_file)
    return out


def build(wordnet: Path) -> list[str]:
    files = _files(wordnet / "data.noun")
    rows: dict[str, str] = {}
    for line in (wordnet / "index.noun").read_text("latin-1").splitlines():
        if line.startswith("  "):
            continue
        parts = line.split()
        lemma, count = parts[0], int(parts[2])
        if not _WORD.fullmatch(lemma):
            continue
        letters = (chr(ord("a") + files[o] - FIRST_FILE) for o in parts[-count:])
        rows[lemma] = "".join(dict.fromkeys(letters))
    lines = [f"{w}\t{c}" for w, c in sorted(rows.items())]
    lines += exception_lines(wordnet / "noun.exc", rows)
    return lines


def main() -> None:
    write_table(OUT, build(wordnet_dir()))


if __name__ == "__main__":
    main()
