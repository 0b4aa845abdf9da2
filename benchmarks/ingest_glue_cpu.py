"""The write process's CPU beyond its embedder: ``Memory.write_batch`` with the vectors
replayed.

What it measures: the same LoCoMo-like messages as ``ingest_ratio.py`` (``--messages``
turns of the dev set, one user per conversation, batches of ``--batch``) written into a
fresh SQLite database per run, with the default ``chat`` profile. A first pass runs the
onnx embedder and keeps every vector it returned; each timed run then answers every
embedding call from those vectors, so its process CPU is the rule extraction, the gate,
reconciliation, the store and the Python around them: what the ingest spends beyond
the raw embedder (issue 35 item 2). The sentence splitter's kept spans are cleared
before each run, so no run reuses another's. Prints each run's process CPU (seconds).

Profile it with py-spy for where that CPU goes, e.g.
``py-spy record -r 500 -f raw -o glue.spy -- python benchmarks/ingest_glue_cpu.py``.

Usage (from the repository root):

    python benchmarks/ingest_glue_cpu.py [PATH] [--messages 400] [--batch 200] [--runs 5]

PATH defaults to ../shared/data/locomo/locomo10_dev.json (read, never copied).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from ingest_ratio import messages, warm

from cognimem import Memory, Message
from cognimem.providers.embeddings import EmbedKind, FloatMatrix, WrappingEmbedder
from cognimem.providers.onnx import OnnxMiniLMEmbedder
from cognimem.providers.tokens import count_tokens
from cognimem.text import sentences

ROOT = Path(__file__).resolve().parent.parent


class Recording(WrappingEmbedder):
    """The onnx embedder, keeping each vector by its text and kind."""

    def __init__(self, inner: OnnxMiniLMEmbedder) -> None:
        super().__init__(inner)
        self.kept: dict[tuple[str, str], np.ndarray] = {}

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        out = await self.inner.embed(texts, kind)
        self.kept.update(((t, kind), v) for t, v in zip(texts, out, strict=True))
        return out


class Replay(WrappingEmbedder):
    """Answers from the vectors a recording kept: no model runs."""

    def __init__(self, recording: Recording) -> None:
        super().__init__(recording.inner)
        self.kept = recording.kept

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        if not texts:
            return await self.inner.embed(texts, kind)
        return np.stack([self.kept[(t, kind)] for t in texts])


async def one_run(
    embedder: WrappingEmbedder, by_user: dict[str, list[Message]], url: str, batch: int
) -> float:
    forget = getattr(sentences, "forget_spans", None)  # a tree before them keeps none
    if forget is not None:
        forget()
    async with Memory.open(url, embedder=embedder) as mem:
        cpu = time.process_time()
        for user, said in by_user.items():
            for i in range(0, len(said), batch):
                await mem.write_batch(said[i : i + batch], user_id=user)
        return time.process_time() - cpu


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "path", nargs="?", default=str(ROOT.parent / "shared/data/locomo/locomo10_dev.json")
    )
    parser.add_argument("--messages", type=int, default=400)
    parser.add_argument("--batch", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    by_user = messages(Path(args.path), args.messages)
    count_tokens("warming up the tokenizer")
    recording = Recording(warm(OnnxMiniLMEmbedder()))
    with tempfile.TemporaryDirectory() as tmp:
        await one_run(recording, by_user, f"sqlite:///{tmp}/recorded.db", args.batch)
        replay = Replay(recording)
        cpus = [
            await one_run(replay, by_user, f"sqlite:///{tmp}/run_{i}.db", args.batch)
            for i in range(args.runs)
        ]
    await recording.aclose()
    print("process CPU per run (s):", ", ".join(f"{c:.3f}" for c in cpus))
    print(f"median {sorted(cpus)[len(cpus) // 2]:.3f}")


if __name__ == "__main__":
    asyncio.run(main())
