"""What the scripts that build the package's WordNet tables share (``build_noun_senses``,
``build_noun_roots``, ``build_verb_senses``): where WordNet 3.0 is read from, the
irregular forms of its exception lists, and the table written so that the same input
gives the same bytes."""

from __future__ import annotations

import gzip
import re
import sys
from collections.abc import Container
from pathlib import Path

__all__ = ["exception_lines", "wordnet_dir", "write_table"]

_WORD = re.compile(r"[a-z][a-z-]*")


def wordnet_dir() -> Path:
    """The WordNet data directory: the first argument, else Debian's ``wordnet-base``."""
    return Path(sys.argv[1] if len(sys.argv) > 1 else "/usr/share/wordnet")


def exception_lines(path: Path, rows: Container[str]) -> list[str]:
    """``form<TAB>>base`` for each single-word irregular form of an exception list
    (``noun.exc``, ``verb.exc``) whose base is a word of ``rows`` and that is not one
    itself."""
    lines = []
    for line in path.read_text("latin-1").splitlines():
        form, base, *_ = line.split()
        if _WORD.fullmatch(form) and base in rows and form not in rows:
            lines.append(f"{form}\t>{base}")
    return lines


def write_table(out: Path, lines: list[str]) -> None:
    """``lines`` gzipped to ``out`` (mtime 0: the same input gives the same bytes)."""
    out.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode(), 9, mtime=0))
    print(f"{len(lines)} lines -> {out}")
