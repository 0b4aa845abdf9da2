"""How many constraint facts the learned stance reader would add on the LoCoMo dev five.

LoCoMo's conversations are small talk between friends, nearly free of standing
preferences said to an assistant: every fact the reader adds there is a proxy for the
filler it could put in a packet. Each turn of the five dev conversations is read as the
write funnel reads a message (``benchmarks/stance_reader_effect.py``'s
``ReadingExtractor``: the rules, then the reader over the vector of
``"<speaker>: <text>"``, the text its item is embedded by), and the turns the reader
adds a fact to are counted by conversation. Pronouns are not resolved across turns here
(the reader does not read them). The data is read, never copied; no text is printed.

Usage (repository root):

    PYTHONPATH=src python benchmarks/stance_reader_locomo.py PATH
"""

from __future__ import annotations

import argparse
from pathlib import Path

from stance_reader import shipped_reader
from stance_reader_effect import ReadingExtractor, embed

from cognimem.eval import locomo
from cognimem.models.extraction import ExtractionInput
from cognimem.models.items import index_text


def count(path: Path) -> list[tuple[str, int, int]]:
    """(conversation, turns, facts the reader added) for each dev conversation."""
    rows = []
    for conv in locomo.dev_five(locomo.load(path)):
        turns = [t for session in conv.sessions for t in session if t.text.strip()]
        vectors = embed([index_text(t.speaker, t.text) for t in turns])
        reading = ReadingExtractor(shipped_reader(), vectors)
        added = 0
        for t in turns:
            message = ExtractionInput(text=t.text, occurred_at=t.occurred_at, author=t.speaker)
            rules = reading.rules_only(message)
            added += len(reading.extract_one(message).facts) - len(rules.facts)
        rows.append((conv.sample_id, len(turns), added))
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path)
    args = parser.parse_args(argv)
    rows = count(args.path)
    print("| conversation | turns | constraint facts the reader adds |")
    print("|---|---|---|")
    for sample, turns, added in rows:
        print(f"| {sample} | {turns} | {added} |")
    print(f"| all five | {sum(r[1] for r in rows)} | {sum(r[2] for r in rows)} |")


if __name__ == "__main__":
    main()
