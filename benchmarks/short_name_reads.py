"""How often the live write path reads the conversation before a message, and the write
CPU per message, when every LoCoMo dev turn is written on its own (as a chat app does).

The rule extractor resolves "she", "my sister" and a short form of a name ("Dom" for
Dominic Price) only against people named in the conversation's recent messages, which
the funnel reads (``Understander._window``) only when a message may point back to
someone. This counts those reads, the links read back (by kind: a short form, else a
pronoun or a role word) and the process CPU seconds per write, into a fresh SQLite file
with the hashing embedder (so the model's time does not drown the path's). It also
counts, per turn, what two gates would say: ``may_refer`` alone (a pronoun or a role
word) and any capitalised word that may be a short form (``coref.short_forms``; the
wide gate) — the second only where the module exists.

Usage (from the repository root, run once per checkout to compare, interleaved):

    PYTHONPATH=<checkout>/src python benchmarks/short_name_reads.py [PATH]
        [--conversations conv-26,conv-30]

PATH defaults to ../shared/data/locomo/locomo10_dev.json. The data is read, never copied.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cognimem import Memory, Settings
from cognimem.eval import locomo
from cognimem.ingest.extract import coref
from cognimem.ingest.understand import Understander
from cognimem.models import Event
from cognimem.providers.fakes import HashingEmbedder
from cognimem.text.gazetteer import is_first_name

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT.parent / "shared" / "data" / "locomo" / "locomo10_dev.json"


async def run(conversations: Sequence[locomo.Conversation]) -> dict[str, Any]:
    reads = 0
    window = Understander._window

    async def counted(self: Understander, events: Sequence[Event]) -> tuple[str, ...]:
        nonlocal reads
        reads += 1
        return await window(self, events)

    Understander._window = counted  # type: ignore[method-assign]
    gates: Counter[str] = Counter()
    links: Counter[str] = Counter()
    cpu = 0.0
    turns = 0
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/reads.db"
        async with Memory.open(url, settings=Settings(), embedder=HashingEmbedder()) as mem:
            for conv in conversations:
                for n, session in enumerate(conv.sessions):
                    for t in (t for t in session if t.text.strip()):
                        gates["may_refer"] += coref.may_refer(t.text)
                        wide = getattr(coref, "short_forms", None)
                        gates["any_short_form_word"] += bool(wide and wide(t.text))
                        gates["short_form_no_first_name"] += bool(
                            wide and any(not is_first_name(w) for w in wide(t.text))
                        )
                        start = time.process_time()
                        written = await mem.write(
                            t.text,
                            user_id=conv.sample_id,
                            session_id=f"{conv.sample_id}-{n}",
                            name=t.speaker,
                            occurred_at=t.occurred_at,
                        )
                        cpu += time.process_time() - start
                        turns += 1
                        del written
            for conv in conversations:
                for f in await mem.facts(user_id=conv.sample_id):
                    for link in f.provenance.get("coreference", []):
                        links["short_form" if "short form" in link["evidence"] else "other"] += 1
    Understander._window = window  # type: ignore[method-assign]
    return {
        "turns": turns,
        "window_reads": reads,
        "gates": dict(gates),
        "fact_links": dict(links),
        "write_cpu_ms_per_turn": round(1000 * cpu / max(turns, 1), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--conversations", default="", help="sample ids, comma-separated")
    args = parser.parse_args()
    conversations = locomo.load(args.path)
    if args.conversations:
        wanted = set(args.conversations.split(","))
        conversations = [c for c in conversations if c.sample_id in wanted]
    print(json.dumps(asyncio.run(run(conversations))))


if __name__ == "__main__":
    main()
