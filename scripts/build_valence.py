"""Writes ``src/cognimem/text/data/valence.tsv.gz`` from the VADER sentiment lexicon
(C.J. Hutto; MIT licence, in ``text/data/NOTICE``), as the ``vaderSentiment`` 3.3.2
wheel ships it (``vaderSentiment/vader_lexicon.txt``):

    pip download --no-deps vadersentiment==3.3.2   # then unzip the wheel
    python scripts/build_valence.py PATH/vader_lexicon.txt

One line per word of letters (an apostrophe or a hyphen inside allowed; no emoticons):
the word, a tab and its mean valence from -4 (most negative) to +4, as rated by ten
people. It is read by :mod:`cognimem.text.valence`.
"""

from __future__ import annotations

import gzip
import re
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src/cognimem/text/data/valence.tsv.gz"
_WORD = re.compile(r"^[a-z](?:[a-z'-]*[a-z])?$")


def build(lexicon: Path) -> list[str]:
    lines = []
    for line in lexicon.read_text("utf-8").splitlines():
        word, mean = line.split("\t")[:2]
        if _WORD.match(word):
            lines.append(f"{word}\t{float(mean):.1f}")
    return sorted(lines)


def main() -> None:
    lines = build(Path(sys.argv[1]))
    # mtime=0: the same input gives the same bytes
    OUT.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode(), 9, mtime=0))


if __name__ == "__main__":
    main()
