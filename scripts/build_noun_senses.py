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

import gzip
import re
import sys
from pathlib import Path

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
    for line in (wordnet / "noun.exc").read_text("latin-1").splitlines():
        plural, base, *_ = line.split()
        if _WORD.fullmatch(plural) and base in rows and plural not in rows:
            lines.append(f"{plural}\t>{base}")
    return lines


def main() -> None:
    wordnet = Path(sys.argv[1] if len(sys.argv) > 1 else "/usr/share/wordnet")
    lines = build(wordnet)
    # mtime=0: the same input gives the same bytes
    OUT.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode(), 9, mtime=0))
    print(f"{len(lines)} lines -> {OUT}")


if __name__ == "__main__":
    main()
