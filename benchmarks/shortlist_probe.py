"""Why a question's evidence turn misses the rerank's shortlist: one conversation of a
time_kinds set written as ``time_kinds.py`` writes it, one question read, and the
read's lexical and vector lists, fused scores and shortlist printed around the evidence.

Usage (repository root; tune conversations only):

    PYTHONPATH=src:. python benchmarks/shortlist_probe.py --data FILE --conv ID --question ID
        [--limit 10]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from event_questions import load, padding_texts
from time_kinds import PADDING, padding_for, write_conversation

from cognimem import Memory
from cognimem.recall import collect

SEEN: dict[str, Any] = {}


def _spy() -> None:
    original = collect.RankInputs.shortlist

    def shortlist(self: collect.RankInputs, config: Any, limit: int) -> list[str]:
        out = original(self, config, limit)
        SEEN.update(inputs=self, out=out, lists=self._lists)
        return out

    collect.RankInputs.shortlist = shortlist  # type: ignore[method-assign]


async def probe(data: Path, conv_id: str, question_id: str, limit: int) -> None:
    convs = list(load(data))
    index = next(n for n, c in enumerate(convs) if c["id"] == conv_id)
    conv = convs[index]
    if conv["split"] != "tune":
        raise SystemExit("tune conversations only")
    q = next(q for q in conv["questions"] if q["id"] == question_id)
    _spy()
    with tempfile.TemporaryDirectory() as tmp:
        async with Memory.open(f"sqlite:///{tmp}/probe.db") as mem:
            pad = padding_for(index, padding_texts())
            last = await write_conversation(mem, conv, pad, PADDING)
            await mem.read(
                q["question"],
                user_id=conv_id,
                reference_time=last + timedelta(days=1),
                limit=limit,
                preset="balanced",
            )
            ids = {c.item_id for cands in SEEN["lists"].values() for c in cands}
            for item_id in ids:
                item = await mem.get(item_id)
                SEEN.setdefault("ext", {})[item_id] = set(item.external_ids)
    report(q, SEEN, limit)


def report(q: dict[str, Any], seen: dict[str, Any], limit: int) -> None:
    inputs, out, lists = seen["inputs"], seen["out"], seen["lists"]
    print(f"question {q['id']}: {q['question']!r}; limit {limit}, shortlist {len(out)}")
    for method, cands in lists.items():
        scores = [c.score for c in cands]
        print(
            f"  {method}: {len(cands)} candidates, raw scores {min(scores):.4f}..{max(scores):.4f}"
        )
    fused = inputs._fused
    low = min(inputs._scores[i] for i in out)
    print(f"  fused: {len(fused)} items; lowest fused score in the shortlist {low:.4f}")
    vec = lists.get("vector", [])
    if vec:
        top = vec[0].item_id
        rank = next(n for n, (i, _) in enumerate(fused, 1) if i == top)
        sig = inputs.get(top).raw
        print(
            f"  top vector hit {top}: signals {sig}, fused {inputs._scores[top]:.4f}, "
            f"fused rank {rank}, in shortlist: {top in out}"
        )
    ext = seen["ext"]
    for item_id, ids in ext.items():
        if ids & set(q["evidence"]):
            ri = inputs.get(item_id)
            rank = next(n for n, (i, _) in enumerate(fused, 1) if i == item_id)
            vrank = next((n for n, c in enumerate(vec, 1) if c.item_id == item_id), None)
            lrank = next(
                (n for n, c in enumerate(lists["lexical"], 1) if c.item_id == item_id), None
            )
            print(
                f"  evidence {sorted(ids)}: signals {ri.raw}, vector rank {vrank}, "
                f"lexical rank {lrank}, fused {inputs._scores[item_id]:.4f}, fused rank {rank}, "
                f"shortlist place {out.index(item_id) + 1 if item_id in out else None}"
            )
    lex_only = sum(1 for i, _ in fused[: len(out)] if set(inputs.get(i).raw) == {"lexical"})
    both = sum(1 for i, _ in fused[: len(out)] if set(inputs.get(i).raw) == {"lexical", "vector"})
    print(
        f"  shortlist by lists: lexical only {lex_only}, both {both}, "
        f"vector only {len(out) - lex_only - both}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--conv", required=True)
    parser.add_argument("--question", required=True)
    parser.add_argument("--limit", type=int, default=10)
    a = parser.parse_args()
    asyncio.run(probe(a.data, a.conv, a.question, a.limit))


if __name__ == "__main__":
    main()
