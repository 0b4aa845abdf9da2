"""The eleventh stop's levers on the standing profile's choice (issue 29 items 2, 3): what
a constraint implies and what a request asks, read through the things the decision
areas list (``text/areas.py``: ``AREA_PHRASES``), replayed from the captures of
``profile_replay.py capture`` (``docs/constraints.md``, "What a constraint implies").
Every lever starts from the shipped choice (``base``) and changes one thing:

- ``phr-W-T[-x]``: the closeness gains ``W`` times how much the statement and the
  request fall on the same listed things (the dot product of their softmaxes over the
  122 listed things at temperature ``T``); ``-x``: in place of the graded area; ``-w``:
  for the whole request only, not its parts (``recall/parts.py``);
- ``so-W[-x]``: the closeness gains ``W`` times the cosine of the two texts' profiles
  over the listed things (each text's cosines with them, centred on their mean): a
  second-order closeness, two texts near the same listed things;
- ``qx-B-K`` / ``sx-B-K`` / ``bx-B-K``: the request's / each statement's / both vectors
  moved ``B`` toward the mean of their ``K`` nearest listed things (unit length again),
  the closeness their cosine (crowding as captured);
- ``z-W``: the cosine with the request standardised by the statement's own cosines with
  the listed things (its mean and spread: how near it sits to any request, the
  mutual-proximity form of the hubness correction), rescaled to the statements' mean
  and spread and mixed ``W`` into the cosine.

- ``sxc-B-K``: as ``sx``, the crowding measured again on the moved vectors (and the
  stances' hubness blended in as shipped);
- ``hubn-N``: every entry's crowding (own, among the user's entries) shrunk toward its
  hubness against the listed things by ``N / (n + N)`` for a user of ``n`` entries: a
  mean over the 5 nearest of nine others is a noisy estimate, the reference a steady one.

Any lever takes ``cwC`` (crowding weight), ``tsS`` (then_stand_out), ``tcC``
(then_close) after it.

Usage (repository root): ``PYTHONPATH=src:benchmarks python
benchmarks/profile_replay_implied.py DIR [LEVER ...]``.
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

from cognimem.providers.onnx import OnnxMiniLMEmbedder
from cognimem.recall import profile_choose
from cognimem.recall.profile import Profile, ProfileEntry
from cognimem.recall.profile_consolidate import stance_hubness
from cognimem.text.areas import AREA_PHRASES

Choose = Callable[..., list[ProfileEntry]]
Extra = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


def _softmax(x: np.ndarray, t: float) -> np.ndarray:
    w = np.exp((x - x.max(axis=-1, keepdims=True)) / t)
    out: np.ndarray = w / w.sum(axis=-1, keepdims=True)
    return out


def _unit(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = x / (np.linalg.norm(x, axis=-1, keepdims=True) + 1e-12)
    return out


def phrase_shares(t: float) -> Extra:
    def extra(s: np.ndarray, q: np.ndarray, p: np.ndarray) -> np.ndarray:
        out: np.ndarray = _softmax(s @ p.T, t) @ _softmax(q @ p.T, t)
        return out

    return extra


def second_order(s: np.ndarray, q: np.ndarray, p: np.ndarray) -> np.ndarray:
    zs = s @ p.T
    zq = q @ p.T
    zs = _unit(zs - zs.mean(axis=1, keepdims=True))
    zq = _unit(zq - zq.mean())
    out: np.ndarray = zs @ zq
    return out


def standardised(s: np.ndarray, q: np.ndarray, p: np.ndarray) -> np.ndarray:
    ref = s @ p.T
    z = (s @ q - ref.mean(axis=1)) / (ref.std(axis=1) + 1e-9)
    return z


def _expand(x: np.ndarray, p: np.ndarray, beta: float, k: int) -> np.ndarray:
    x2 = np.atleast_2d(x)
    near = np.argsort(-(x2 @ p.T), axis=1)[:, :k]
    return _unit(x2 + beta * p[near].mean(axis=1))


class Replay:
    def __init__(self, data: dict[str, list[pr.Record]], phrases: np.ndarray) -> None:
        self.calls = {id(c["profile"]): c for rs in data.values() for r in rs for c in r["calls"]}
        self.p = phrases.astype(np.float64)

    def added(self, extra: Extra, weight: float, instead: bool, parts: bool = True) -> Choose:
        def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
            call = self.calls[id(profile)]
            semantic, area, tagged, at, config, areas, *things = inputs
            if call["vectors"] is None or call["qvec"] is None:
                return profile_choose.choose(profile, *inputs)
            if not parts and not config.crowding_weight:  # a part's ranking (part_config)
                return profile_choose.choose(profile, *inputs)
            s = np.asarray(call["vectors"], np.float64)
            q = np.asarray(call["qvec"], np.float64)
            close = np.array(semantic, dtype=np.float64)
            close[profile.columns.rows] += weight * extra(s, q, self.p)
            if instead:
                config = replace(config, area_affinity=0.0)
            return profile_choose.choose(profile, close, area, tagged, at, config, areas, *things)

        return choose

    def standard(self, weight: float) -> Choose:
        def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
            call = self.calls[id(profile)]
            semantic, area, tagged, at, config, areas, *things = inputs
            if call["vectors"] is None or call["qvec"] is None:
                return profile_choose.choose(profile, *inputs)
            s = np.asarray(call["vectors"], np.float64)
            q = np.asarray(call["qvec"], np.float64)
            cos = s @ q
            z = standardised(s, q, self.p)
            z = (z - z.mean()) / (z.std() + 1e-9) * cos.std() + cos.mean()
            close = np.array(semantic, dtype=np.float64)
            close[profile.columns.rows] = (1 - weight) * cos + weight * z
            return profile_choose.choose(profile, close, area, tagged, at, config, areas, *things)

        return choose

    def shrunk(self, n0: float) -> Choose:
        cache: dict[int, Profile] = {}

        def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
            call = self.calls[id(profile)]
            if call["vectors"] is None or len(profile.entries) < 2:
                return profile_choose.choose(profile, *inputs)
            if id(profile) not in cache:
                heads = np.asarray(call["vectors"], np.float64)[profile.columns.starts]
                own = pr.recrowded(profile, heads)
                hub = (heads @ self.p.T).mean(axis=1)
                m = n0 / (len(profile.entries) + n0)
                entries = tuple(
                    replace(e, crowding=float((1 - m) * e.crowding + m * h))
                    for e, h in zip(own.entries, hub, strict=True)
                )
                cache[id(profile)] = replace(profile, entries=entries)
            return profile_choose.choose(cache[id(profile)], *inputs)

        return choose

    def expanded(
        self, beta: float, k: int, request: bool, statements: bool, crowd: bool = False
    ) -> Choose:
        cache: dict[int, Profile] = {}

        def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
            call = self.calls[id(profile)]
            semantic, area, tagged, at, config, areas, *things = inputs
            if call["vectors"] is None or call["qvec"] is None:
                return profile_choose.choose(profile, *inputs)
            s = np.asarray(call["vectors"], np.float64)
            q = np.asarray(call["qvec"], np.float64)
            if request:
                q = _expand(q, self.p, beta, k)[0]
            if statements:
                s = _expand(s, self.p, beta, k)
                if crowd and len(profile.entries) > 1:
                    if id(profile) not in cache:
                        heads = s[profile.columns.starts]
                        moved = pr.recrowded(profile, heads)
                        cache[id(profile)] = stance_hubness(moved, heads, self.p, config.stance_hub)
                    profile = cache[id(profile)]
            close = np.array(semantic, dtype=np.float64)
            close[profile.columns.rows] = s @ q
            return profile_choose.choose(profile, close, area, tagged, at, config, areas, *things)

        return choose

    def named(self, name: str) -> Choose:
        """``name`` with any of ``cwC`` (crowding weight), ``tsS`` (then_stand_out),
        ``tcC`` (then_close) after it."""
        parts = name.split("-")
        knobs = {"cw": "crowding_weight", "ts": "then_stand_out", "tc": "then_close"}
        changes = {knobs[v[:2]]: float(v[2:]) for v in parts if v[:2] in knobs and v[2:3].isdigit()}
        inner = self._named(
            "-".join(v for v in parts if v[:2] not in knobs or not v[2:3].isdigit())
        )
        if not changes:
            return inner

        def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
            head, config, rest = inputs[:4], inputs[4], inputs[5:]
            if config.crowding_weight:  # a part's ranking keeps its own (part_config)
                config = replace(config, **changes)
            return inner(profile, *head, config, *rest)

        return choose

    def _named(self, name: str) -> Choose:
        if name == "base":
            return profile_choose.choose
        kind, *rest = name.split("-")
        instead = "x" in rest
        whole = "w" in rest  # the whole request only, not its parts
        numbers = [float(v) for v in rest if v not in ("x", "w")]
        if kind == "z":
            return self.standard(numbers[0])
        if kind == "hubn":
            return self.shrunk(numbers[0])
        if kind == "sxc":
            return self.expanded(numbers[0], int(numbers[1]), False, True, True)
        if kind == "phr":
            return self.added(phrase_shares(numbers[1]), numbers[0], instead, not whole)
        if kind == "so":
            return self.added(second_order, numbers[0], instead)
        sides = {"qx": (True, False), "sx": (False, True), "bx": (True, True)}[kind]
        return self.expanded(numbers[0], int(numbers[1]), *sides)


def main() -> None:
    folder, names = Path(sys.argv[1]), sys.argv[2:] or ["base"]
    data = pr.load(folder)
    phrases = asyncio.run(OnnxMiniLMEmbedder().embed(list(AREA_PHRASES), "document"))
    replay = Replay(data, np.asarray(phrases, dtype=np.float32))
    for name in names:
        print(pr.evaluate(data, replay.named(name), name), flush=True)


if __name__ == "__main__":
    main()
