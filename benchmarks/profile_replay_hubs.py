"""The tenth stop's levers on the standing profile's choice (issue 29 item 2): a stance's
crowding blended with its hubness against the things the decision areas list, replayed
from the captures of ``profile_replay.py capture`` (``docs/constraints.md``, "Hubness
against the listed things"). Every lever starts from the choice as it was before the
stop (``before``: each entry's crowding among the user's entries recomputed from the
captured vectors, ``stance_hub`` 0, ``then_close`` None), so captures of either code
replay alike:

- ``hub-M[-cC][-sS]``: each stance's (policy, value) crowding ``M`` its hubness (its
  mean cosine with ``AREA_PHRASES``, shifted to the stances' mean crowding), after the
  best the closeness ``C`` σ out (not as the score), the score ``S`` σ (not 0.5);
  ``hub-0.35-c0.3`` is the shipped choice;
- ``huball-M``: every entry's crowding, not shifted (goals, states and causes too);
- ``hubk-K-M``: the hubness as the mean of the ``K`` nearest listed things;
- ``topic-M``: the stances' crowding among the user's stances measured on their
  closeness to the listed things (centred, unit length), same mean and spread.

Usage (repository root): ``PYTHONPATH=src:benchmarks python
benchmarks/profile_replay_hubs.py DIR [LEVER ...]`` (no lever: the table of the docs).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import profile_replay as pr

from cognimem.models.knowledge import BINDING_CATEGORIES
from cognimem.providers.onnx import OnnxMiniLMEmbedder
from cognimem.recall import profile_choose
from cognimem.recall.profile import Profile, ProfileEntry
from cognimem.text.areas import AREA_PHRASES

Choose = Callable[..., list[ProfileEntry]]
Crowd = Callable[[Profile, np.ndarray, np.ndarray], np.ndarray]

TABLE = (
    "before",
    "hub-0.35-c0.3",
    "hub-0.35",
    "hub-0.35-c0.5-s0.3",
    "hub-0.25-c0.3",
    "hub-0.5-c0.3",
    "hub-0.35-c0.25",
    "hub-0.35-c0.4",
    "hub-0-c0.3",
    "huball-1",
    "huball-0.5",
    "hubk-10-0.35-c0.3",
    "topic-0.5-c0.3",
)


def _stances(profile: Profile) -> np.ndarray:
    return np.array([s.fact.category in BINDING_CATEGORIES for s in profile.entries])


def _blend(base: np.ndarray, hub: np.ndarray, chosen: np.ndarray, mix: float) -> np.ndarray:
    out = base.copy()
    if chosen.sum() > 1:
        own, h = base[chosen], hub[chosen]
        out[chosen] = (1 - mix) * own + mix * (h - h.mean() + own.mean())
    return out


def hub_mean(k: int, mix: float, every: bool = False) -> Crowd:
    def crowd(profile: Profile, heads: np.ndarray, reference: np.ndarray) -> np.ndarray:
        base = np.array([s.crowding for s in profile.entries])
        close = heads @ reference.T
        hub = close.mean(axis=1) if k == 0 else np.sort(close, axis=1)[:, -k:].mean(axis=1)
        if every:  # not shifted, every entry
            return np.asarray((1 - mix) * base + mix * hub)
        return _blend(base, hub, _stances(profile), mix)

    return crowd


def topic_space(mix: float) -> Crowd:
    def crowd(profile: Profile, heads: np.ndarray, reference: np.ndarray) -> np.ndarray:
        base = np.array([s.crowding for s in profile.entries])
        close = heads @ reference.T
        topic = close - close.mean(axis=1, keepdims=True)
        own = np.array([s.crowding for s in pr.recrowded(profile, topic).entries])
        chosen = _stances(profile)
        if chosen.sum() > 1:  # the same mean and spread as the stances' crowding
            o, b = own[chosen], base[chosen]
            own[chosen] = (o - o.mean()) / (o.std() + 1e-9) * b.std() + b.mean()
        return _blend(base, own, chosen, mix)

    return crowd


class Replay:
    def __init__(self, data: dict[str, list[pr.Record]], reference: np.ndarray) -> None:
        self.calls = {id(c["profile"]): c for rs in data.values() for r in rs for c in r["calls"]}
        self.reference = reference
        self.base: dict[int, Profile] = {}

    def _before(self, profile: Profile) -> tuple[Profile, np.ndarray | None]:
        call = self.calls[id(profile)]
        if call["vectors"] is None:
            return profile, None
        heads = np.asarray(call["vectors"])[profile.columns.starts]
        if id(profile) not in self.base:
            self.base[id(profile)] = pr.recrowded(profile, heads)
        return self.base[id(profile)], heads

    def lever(self, crowd: Crowd | None, close: float | None, score: float = 0.5) -> Choose:
        cache: dict[int, Profile] = {}

        def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
            semantic, area, tagged, at, config, areas, *things = inputs
            config = replace(config, then_stand_out=score, then_close=close)
            base, heads = self._before(profile)
            if crowd is not None and heads is not None:
                if id(profile) not in cache:
                    crowding = crowd(base, heads, self.reference)
                    entries = tuple(
                        replace(s, crowding=float(c))
                        for s, c in zip(base.entries, crowding, strict=True)
                    )
                    cache[id(profile)] = replace(base, entries=entries)
                base = cache[id(profile)]
            return profile_choose.choose(base, semantic, area, tagged, at, config, areas, *things)

        return choose

    def named(self, name: str) -> Choose:
        if name == "before":
            return self.lever(None, None)
        kind, *rest = name.split("-")
        close = next((float(p[1:]) for p in rest if p.startswith("c")), None)
        score = next((float(p[1:]) for p in rest if p.startswith("s")), 0.5)
        numbers = [float(p) for p in rest if p[0].isdigit()]
        crowd: Crowd = {
            "hub": lambda: hub_mean(0, numbers[0]),
            "huball": lambda: hub_mean(0, numbers[0], every=True),
            "hubk": lambda: hub_mean(int(numbers[0]), numbers[1]),
            "topic": lambda: topic_space(numbers[0]),
        }[kind]()
        return self.lever(crowd, close, score)


def main() -> None:
    folder, names = Path(sys.argv[1]), sys.argv[2:] or list(TABLE)
    data = pr.load(folder)
    phrases = asyncio.run(OnnxMiniLMEmbedder().embed(list(AREA_PHRASES), "document"))
    replay = Replay(data, np.asarray(phrases, dtype=np.float32))
    for name in names:
        print(pr.evaluate(data, replay.named(name), name))


if __name__ == "__main__":
    main()
