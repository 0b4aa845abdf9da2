"""A second-stage judge of "does this stance bear on this request" on the standing
profile's best-ranked entries (issue 29 item 2), replayed from the captures of
``profile_replay.py capture`` over the preference sets: a judge that is not the
bi-encoder's pooled cosine reorders the ``k`` entries the profile's choice ranks best
(nothing cut: ``profile_replay.every_entry``), and its best goes first.

Judges:

- ``ce``: the project's cross-encoder (``providers/cross_encoder.py``, ms-marco-l12,
  int8), the request and the entry's statement read together (its logit);
- ``late``: MiniLM's token states (the default embedder's model, before pooling),
  each request word piece's best cosine with the entry's word pieces, averaged
  (late interaction, as ColBERT scores; [CLS] and [SEP] left out);
- ``oracle``: the entry that holds the cue's event, when it is among the ``k`` (what a
  judge that is always right would give; it leaves the choice alone otherwise);
- ``bge``: another bi-encoder, one trained for asymmetric retrieval (bge-small, the
  request with its query prefix, the entry as a passage): its cosine.

An entry's side of ``late`` and ``bge`` is computed once and kept (as the profile's
consolidation would), so the CPU counted is the request's side and the products.

Levers, per judge and ``k``:

- ``first``: the judge's best of the top ``k`` is carried first, then the choice's own
  entries, as many in all as the choice carried (one at least): no more entries;
- ``order``: the choice's own entries only, the judge's best of them first;
- ``blend-W``: as ``first``, the best by the choice's score plus ``W`` times the
  judge's score less its mean over the ``k`` (the judge as a signal, not the decider).

Printed per set and half: cue in the packet / other preferences shown (as
``profile_replay.simulate`` rebuilds the packet), and the judge's CPU per read
(``time.process_time``, every thread; p50 and p90 over the reads).

Usage (repository root; ``PYTHONPATH=src:benchmarks``; the tune halves unless
``--half check``)::

    python benchmarks/profile_replay_judge.py DIR [--half tune] \\
        [--judge ce late bge oracle] [--k 2 3 5] [--how first order blend-0.5]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import profile_replay as pr

from cognimem.providers.cross_encoder import build_cross_encoder
from cognimem.providers.onnx import OnnxEmbedder, OnnxMiniLMEmbedder
from cognimem.providers.onnx_batches import batch_feeds
from cognimem.providers.onnx_models import BGE_SMALL, run_session
from cognimem.recall import profile_choose
from cognimem.recall.profile import Profile, ProfileEntry

ROOT = Path(__file__).resolve().parent.parent
DATA = {  # capture stem -> the set it read
    "pr": "preference_requests",
    "pr_more": "preference_requests_more",
    "pr_third": "preference_requests_third",
    "pr_fourth": "preference_requests_fourth",
    "pr_fifth": "preference_requests_fifth",
    "pr_sixth": "preference_requests_sixth",
}
Judge = Callable[[str, Sequence[str]], np.ndarray]


def requests(stem: str) -> dict[str, str]:
    path = ROOT / "benchmarks" / "data" / f"{DATA[stem]}.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return {r["id"]: r["request"] for r in rows}


def cross_encoder() -> Judge:
    model = build_cross_encoder("ms-marco-l12")

    def judge(request: str, texts: Sequence[str]) -> np.ndarray:
        p = np.clip(model.score_sync(request, list(texts)), 1e-7, 1 - 1e-7)  # type: ignore[attr-defined]
        return np.log(p / (1 - p))

    return judge


def late_interaction() -> Judge:
    embedder = OnnxMiniLMEmbedder()

    kept: dict[str, np.ndarray] = {}

    def states(text: str) -> np.ndarray:
        tokenizer, session, inputs = embedder._loader.get()
        (encoding,) = tokenizer.encode_batch([text], add_special_tokens=True)
        hidden = run_session(embedder.model, session, batch_feeds([encoding], inputs))[0]
        words = hidden[1:-1] if len(hidden) > 2 else hidden
        unit: np.ndarray = words / (np.linalg.norm(words, axis=1, keepdims=True) + 1e-9)
        return unit

    def judge(request: str, texts: Sequence[str]) -> np.ndarray:
        asked = states(request)
        return np.array(
            [float((asked @ _kept(kept, t, states).T).max(axis=1).mean()) for t in texts]
        )

    return judge


def asymmetric() -> Judge:
    embedder = OnnxEmbedder(BGE_SMALL)
    kept: dict[str, np.ndarray] = {}

    def passage(text: str) -> np.ndarray:
        vector: np.ndarray = embedder.embed_sync([text], "document")[0]
        return vector

    def judge(request: str, texts: Sequence[str]) -> np.ndarray:
        asked = embedder.embed_sync([request], "query")[0]
        return np.array([float(asked @ _kept(kept, t, passage)) for t in texts])

    return judge


def _kept(
    kept: dict[str, np.ndarray], text: str, compute: Callable[[str], np.ndarray]
) -> np.ndarray:
    """An entry's side of a judge, computed on first use and kept; its CPU is not the
    read's (the profile's consolidation would compute it once)."""
    if text not in kept:
        started = time.process_time()
        kept[text] = compute(text)
        Replayed.uncounted += time.process_time() - started
    return kept[text]


class Replayed:
    """The levers of one judge, with the request each captured profile was read for."""

    def __init__(self, judge: Judge | None, asked: dict[int, str], cues: dict[int, str]) -> None:
        self.judge = judge  # None: the oracle
        self.asked = asked
        self.cues = cues
        self.cpu: list[float] = []

    uncounted = 0.0  # the entries' side computed during a judged read (not its CPU)

    def lever(self, how: str, k: int) -> Callable[..., list[ProfileEntry]]:
        def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
            carried = profile_choose.choose(profile, *inputs)
            request = self.asked.get(id(profile))
            if request is None or not profile.entries:
                return carried
            if how != "order":
                pool = sorted(pr.every_entry(profile, inputs), key=lambda e: -e.score)[:k]
            else:
                pool = carried[:k]
            if len(pool) < 2:
                return carried
            if self.judge is None:
                cue = self.cues[id(profile)]
                scores = np.array([float(cue in e.standing.event_ids()) for e in pool])
                if not scores.any():
                    return carried
            else:
                started, before = time.process_time(), Replayed.uncounted
                scores = self.judge(request, [e.standing.fact.text for e in pool])
                self.cpu.append(time.process_time() - started - (Replayed.uncounted - before))
            if how.startswith("blend-"):
                weight = float(how.removeprefix("blend-"))
                scores = np.array([e.score for e in pool]) + weight * (scores - scores.mean())
            best = pool[int(np.argmax(scores))]
            rest = [e for e in carried if e.standing.fact.id != best.standing.fact.id]
            return [best, *rest][: max(len(carried), 1)]

        return choose


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--half", choices=("tune", "check"), default="tune")
    parser.add_argument("--judge", nargs="*", default=["ce", "late", "bge"])  # or oracle
    parser.add_argument("--k", nargs="*", type=int, default=[2, 3, 5])
    parser.add_argument("--how", nargs="*", default=["first", "order"])
    args = parser.parse_args()
    data: dict[str, list[Any]] = {}
    asked: dict[int, str] = {}
    cues: dict[int, str] = {}
    for stem in DATA:
        path = args.folder / f"{stem}.pkl"
        if not path.exists():
            continue
        wanted = requests(stem)
        data[stem] = [r for r in pr.first_reads(path) if r["split"] == args.half]
        for r in data[stem]:
            for c in r["calls"]:
                asked[id(c["profile"])] = wanted[r["id"]]
                cues[id(c["profile"])] = r["cue"]
    print(_row("base", data, profile_choose.choose))
    judges = {"ce": cross_encoder, "late": late_interaction, "bge": asymmetric}
    for name in args.judge:
        replayed = Replayed(judges[name]() if name in judges else None, asked, cues)
        for how in args.how:
            for k in args.k:
                replayed.cpu.clear()
                line = _row(f"{name}-{how}-{k}", data, replayed.lever(how, k))
                cpu = np.array(replayed.cpu) * 1000
                if not len(cpu):  # the oracle
                    print(line)
                    continue
                print(f"{line}  cpu ms p50 {np.median(cpu):.1f} p90 {np.percentile(cpu, 90):.1f}")


def _row(label: str, data: dict[str, list[Any]], choose: Callable[..., Any]) -> str:
    parts = []
    hits = total = 0
    for stem, records in data.items():
        done = [pr.simulate(r, choose) for r in records]
        hit = sum(d[0] for d in done)
        hits, total = hits + hit, total + len(done)
        parts.append(f"{stem}:{hit / len(done):.3f}/{np.mean([d[2] for d in done]):.2f}")
    return f"{label:16s} pooled {hits}/{total}  " + "  ".join(parts)


if __name__ == "__main__":
    main()
