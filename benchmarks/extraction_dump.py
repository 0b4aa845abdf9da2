"""Every ``Extraction`` the rule extractor reads, as text that two trees can diff: a check
that a refactor of ``ingest/extract/`` left what it extracts alone.

Reads, with ``RuleExtractor`` (role ``user``, at a fixed time):
- every non-empty string in every row of ``benchmarks/data/*.jsonl`` (nested lists and
  objects included, keys in sorted order), each message alone;
- with a LoCoMo file given, every turn of every session, once alone and once in a batch
  per session whose messages carry the session's six turns before them as ``context``
  (so coreference runs too).

Prints one line per extraction, ``<where>\\t<Extraction as JSON>``; compare two trees by
the output's md5:

    PYTHONPATH=src:. python benchmarks/extraction_dump.py [LOCOMO.json] | md5sum
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.models.extraction import Extraction, ExtractionInput

_AT = datetime(2024, 3, 15, 12, 0, tzinfo=UTC)
_DATA = Path(__file__).parent / "data"


def strings(value: Any) -> Iterator[str]:
    """Every non-empty string in ``value``, depth first, object keys sorted."""
    if isinstance(value, str):
        if value.strip():
            yield value
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)
    elif isinstance(value, dict):
        for key in sorted(value):
            yield from strings(value[key])


def emit(where: str, extraction: Extraction) -> None:
    sys.stdout.write(f"{where}\t{extraction.model_dump_json()}\n")


def dump_data(extractor: RuleExtractor) -> None:
    for path in sorted(_DATA.glob("*.jsonl")):
        for n, line in enumerate(path.read_text().splitlines()):
            if not line.strip():
                continue
            for i, text in enumerate(strings(json.loads(line))):
                message = ExtractionInput(text=text, occurred_at=_AT)
                emit(f"{path.name}:{n}:{i}", extractor.extract_one(message))


def dump_locomo(extractor: RuleExtractor, path: Path) -> None:
    for sample in json.loads(path.read_text()):
        conversation = sample["conversation"]
        for key in sorted(conversation):
            turns = conversation[key]
            if not key.startswith("session_") or not isinstance(turns, list):
                continue
            where = [f"{sample['sample_id']}:{t.get('dia_id')}" for t in turns]
            alone = [
                ExtractionInput(text=t["text"], occurred_at=_AT, author=t.get("speaker"))
                for t in turns
            ]
            for w, message in zip(where, alone, strict=True):
                emit(w, extractor.extract_one(message))
            batch = [
                m.model_copy(update={"context": tuple(t["text"] for t in turns[max(0, i - 6) : i])})
                for i, m in enumerate(alone)
            ]
            for w, extraction in zip(where, asyncio.run(extractor.extract(batch)), strict=True):
                emit(f"{w}:ctx", extraction)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("locomo", nargs="?", type=Path, help="a LoCoMo JSON file (optional)")
    args = parser.parse_args()
    extractor = RuleExtractor()
    dump_data(extractor)
    if args.locomo is not None:
        dump_locomo(extractor, args.locomo)


if __name__ == "__main__":
    main()
