"""Ingest throughput of one whole LoCoMo conversation, beside the raw embedder's.

What it measures: turns per second of ``locomo.ingest`` (one ``Memory.write_batch`` per
session) with the default local embedder (onnx:minilm) and no LLM, into a fresh temporary
SQLite database with a fresh ``Memory`` for every repetition, so no cache helps. The
baseline, in the same run, is a fresh ``OnnxMiniLMEmbedder`` embedding the very texts the
write funnel embeds (``"<speaker>: <text>"`` per chunk, as the chunker and ``index_text``
make them), session by session. Both models are warmed up before timing; repetitions
interleave the two (alternating which goes first).

It also splits the ingest time: inside the onnx embedder, in each store call the funnel
makes (timed around the store's methods) and the rest (validation, privacy gate,
chunking, token counting, models). Target: ingest / raw ≥ 0.60.

Usage (from the repository root):

    python benchmarks/ingest_throughput.py [PATH] [--conversation conv-26] [--repeats 5]
        [--out benchmarks/results]

PATH defaults to ../shared/data/locomo/locomo10_dev.json. The data is read, never copied.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _machine import describe

from cognimem import Memory
from cognimem.config import IngestSettings
from cognimem.eval import locomo
from cognimem.ingest.chunking import chunk_text
from cognimem.ingest.funnel import index_text
from cognimem.ingest.gate import redact_pii
from cognimem.providers.embeddings import EmbedKind, FloatMatrix
from cognimem.providers.onnx import OnnxMiniLMEmbedder
from cognimem.providers.tokens import count_tokens

ROOT = Path(__file__).resolve().parent.parent
STORE_CALLS = (
    "find_duplicates",
    "previous_event",
    "get_embeddings",
    "put_embeddings",
    "commit",
)


class TimedEmbedder:
    """An ``Embedder`` around the onnx model that adds up time spent in it."""

    def __init__(self, inner: OnnxMiniLMEmbedder) -> None:
        self.inner = inner
        self.seconds = 0.0
        self.texts: list[str] = []

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    async def dimension(self) -> int:
        return await self.inner.dimension()

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        start = time.perf_counter()
        try:
            return await self.inner.embed(texts, kind)
        finally:
            self.seconds += time.perf_counter() - start
            self.texts.extend(texts)

    async def aclose(self) -> None:
        await self.inner.aclose()


def time_store_calls(store: Any, totals: dict[str, float]) -> None:
    """Wrap the store methods the funnel calls so their wall time adds up in ``totals``."""

    def wrap(name: str, method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return await method(*args, **kwargs)
            finally:
                totals[name] += time.perf_counter() - start

        return timed

    for name in STORE_CALLS:
        setattr(store, name, wrap(name, getattr(store, name)))


@dataclass
class IngestRun:
    seconds: float
    turns: int
    parts: dict[str, float]
    embedded: list[str] = field(repr=False)


def funnel_texts(speaker: str, text: str, settings: IngestSettings) -> list[str]:
    """What the write funnel embeds for one turn: ``"<speaker>: <chunk>"`` per chunk."""
    chunks = chunk_text(text, settings.chunk_tokens, count_tokens)
    if settings.redact_pii:
        chunks = [redact_pii(c).text for c in chunks]
    return [index_text(speaker, c) for c in chunks]


def session_texts(conv: locomo.Conversation) -> list[list[str]]:
    """The strings the write funnel embeds, per session (what ``locomo.ingest`` writes)."""
    settings = IngestSettings()
    return [
        [x for t in session if t.text.strip() for x in funnel_texts(t.speaker, t.text, settings)]
        for session in conv.sessions
    ]


def warm(embedder: OnnxMiniLMEmbedder) -> OnnxMiniLMEmbedder:
    embedder.embed_sync(["warming up the model before timing"])
    return embedder


async def raw_pass(sessions: list[list[str]]) -> float:
    """Seconds for a fresh, warmed onnx embedder to embed every session's texts."""
    embedder = warm(OnnxMiniLMEmbedder())
    start = time.perf_counter()
    for texts in sessions:
        if texts:
            await embedder.embed(texts, "document")
    seconds = time.perf_counter() - start
    await embedder.aclose()
    return seconds


async def ingest_pass(conv: locomo.Conversation) -> IngestRun:
    """``locomo.ingest`` into a fresh database and a fresh ``Memory``, timed by part."""
    timed = TimedEmbedder(warm(OnnxMiniLMEmbedder()))
    parts: dict[str, float] = defaultdict(float)
    with tempfile.TemporaryDirectory() as tmp:
        async with Memory.open(f"sqlite:///{tmp}/ingest.db", embedder=timed) as mem:
            time_store_calls(mem.store, parts)
            start = time.perf_counter()
            turns = await locomo.ingest(mem, conv)
            seconds = time.perf_counter() - start
    parts["embed (onnx)"] = timed.seconds
    parts["rest (validate, gate, chunk, models)"] = seconds - sum(parts.values())
    return IngestRun(seconds, turns, dict(parts), timed.texts)


async def run(conv: locomo.Conversation, repeats: int) -> tuple[list[float], list[IngestRun]]:
    sessions = session_texts(conv)
    raw: list[float] = []
    ingest: list[IngestRun] = []
    for rep in range(repeats):
        if rep % 2:
            ingest.append(await ingest_pass(conv))
            raw.append(await raw_pass(sessions))
        else:
            raw.append(await raw_pass(sessions))
            ingest.append(await ingest_pass(conv))
        ratio = raw[-1] / ingest[-1].seconds
        timing = f"raw {raw[-1]:.2f}s, ingest {ingest[-1].seconds:.2f}s, ratio {ratio:.3f}"
        print(f"repetition {rep + 1}: {timing}", flush=True)
    return raw, ingest


def spread(values: Sequence[float]) -> dict[str, float]:
    return {
        "median": round(statistics.median(values), 3),
        "min": round(min(values), 3),
        "max": round(max(values), 3),
    }


def summarise(
    conv: locomo.Conversation, raw: list[float], ingest: list[IngestRun]
) -> dict[str, Any]:
    expected = [t for texts in session_texts(conv) for t in texts]
    turns = ingest[0].turns
    raw_tps = [len(expected) / s for s in raw]
    ingest_tps = [r.turns / r.seconds for r in ingest]
    paired = [i / r for i, r in zip(ingest_tps, raw_tps, strict=True)]
    median_ingest = statistics.median(r.seconds for r in ingest)
    parts = {
        name: round(statistics.median(r.parts[name] for r in ingest), 3) for name in ingest[0].parts
    }
    return {
        "conversation": conv.sample_id,
        "sessions": len(conv.sessions),
        "turns": turns,
        "texts_embedded_by_baseline": len(expected),
        "texts_embedded_by_ingest": len(ingest[0].embedded),
        # must be 0: ingest embeds only baseline strings (fewer if some repeat verbatim)
        "ingest_texts_not_in_baseline": len(set(ingest[0].embedded) - set(expected)),
        "repeats": len(raw),
        "raw_embedder_seconds": spread(raw),
        "ingest_seconds": spread([r.seconds for r in ingest]),
        "raw_embedder_turns_per_s": spread(raw_tps),
        "ingest_turns_per_s": spread(ingest_tps),
        "ratio_ingest_to_raw": {
            "of_medians": round(statistics.median(ingest_tps) / statistics.median(raw_tps), 3),
            "paired": spread(paired),
            "target": 0.60,
        },
        "ingest_breakdown_median_seconds": parts,
        "ingest_breakdown_share_of_median": {
            k: round(v / median_ingest, 3) for k, v in parts.items()
        },
    }


def render(s: dict[str, Any]) -> list[str]:
    raw, ing = s["raw_embedder_turns_per_s"], s["ingest_turns_per_s"]
    raw_s, ing_s = s["raw_embedder_seconds"], s["ingest_seconds"]
    ratio = s["ratio_ingest_to_raw"]
    lines = [
        f"{s['conversation']}: {s['turns']} turns in {s['sessions']} sessions, "
        f"{s['repeats']} repetitions (medians, min–max)",
        "",
        "| run | turns/s | seconds |",
        "|---|---|---|",
        f"| raw embedder (baseline) | {raw['median']:.1f} ({raw['min']:.1f}–{raw['max']:.1f}) "
        f"| {raw_s['median']:.2f} ({raw_s['min']:.2f}–{raw_s['max']:.2f}) |",
        f"| ingest via write_batch | {ing['median']:.1f} ({ing['min']:.1f}–{ing['max']:.1f}) "
        f"| {ing_s['median']:.2f} ({ing_s['min']:.2f}–{ing_s['max']:.2f}) |",
        "",
        f"Ratio ingest / raw: {ratio['of_medians']:.3f} (of medians); paired per repetition "
        f"{ratio['paired']['median']:.3f} ({ratio['paired']['min']:.3f}–"
        f"{ratio['paired']['max']:.3f}); target ≥ {ratio['target']:.2f}.",
        "",
        "| where ingest time goes | median seconds | share |",
        "|---|---|---|",
    ]
    shares = s["ingest_breakdown_share_of_median"]
    for name, seconds in s["ingest_breakdown_median_seconds"].items():
        lines.append(f"| {name} | {seconds:.3f} | {shares[name]:.1%} |")
    return lines


def pick(conversations: list[locomo.Conversation], wanted: str | None) -> locomo.Conversation:
    if wanted is None:
        return conversations[0]
    for conv in conversations:
        if conv.sample_id == wanted:
            return conv
    known = ", ".join(c.sample_id for c in conversations)
    raise SystemExit(f"no conversation {wanted!r} in the file; known: {known}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "path", nargs="?", type=Path, default=ROOT.parent / "shared/data/locomo/locomo10_dev.json"
    )
    parser.add_argument("--conversation", help="sample_id, e.g. conv-26 (default: the first)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = parser.parse_args()
    machine = describe()
    conv = pick(locomo.load(args.path), args.conversation)
    started = time.perf_counter()
    raw, ingest = asyncio.run(run(conv, args.repeats))
    result = {
        "command": ("python benchmarks/ingest_throughput.py " + " ".join(sys.argv[1:])).strip(),
        "machine": machine,
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        "seconds": round(time.perf_counter() - started, 1),
        **summarise(conv, raw, ingest),
    }
    lines = [
        "# Ingest throughput, one LoCoMo conversation (onnx:minilm, no LLM)",
        "",
        f"Command: `{result['command']}`  ",
        f"Machine: {machine['summary']}  ",
        f"Load average (1/5/15 min) at start {machine['load_average_1_5_15']}, "
        f"at end {result['load_average_at_end']}",
        "",
        *render(result),
        "",
        "Each repetition: a fresh temporary SQLite database and a fresh `Memory` (no cache "
        "helps); baseline: a fresh `OnnxMiniLMEmbedder` on the same `speaker: text` strings, "
        "one call per session. Both warmed up before timing.",
        "",
    ]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "ingest_throughput.json").write_text(json.dumps(result, indent=2) + "\n")
    (args.out / "ingest_throughput.md").write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
