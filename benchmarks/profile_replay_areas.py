"""The fifteenth stop's levers on the request's decision areas and the constraint's area
tags (issue 29 items 2 and 3), replayed from the captures of ``profile_replay.py
capture`` (``docs/constraints.md``, "Filler behind the profile's choice, and the
request's areas from more things"). Every lever starts from the shipped choice
(``base``) and changes one thing:

- ``req-MAX-MEAN3-WHOLE[-tT][-mM-SPREAD]``: the request's area shares (the graded
  affinity's request side) from a blend of each area's nearest listed thing's cosine
  (``MAX``), the mean of its three nearest things' (``MEAN3``) and the cosine with its
  whole description embedded (``WHOLE``), softmax at temperature ``T`` (0.02 as
  shipped); with a margin ``M``, when the closest area leads the second by less, the
  request is in no area (``none``: shares spread evenly) or in every area within ``M``
  of the closest (``near``);
- ``tags-MIX``: each statement's area shares blended ``MIX`` with the areas it was
  named in at write time (its scope tags' areas, ``area:`` tags).

Usage (repository root): ``PYTHONPATH=src:benchmarks python
benchmarks/profile_replay_areas.py DIR [LEVER ...]`` (no lever: every row of the table).
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
from cognimem.text.areas import AREA_PHRASES, AREAS, areas_of_tags

Choose = Callable[..., list[ProfileEntry]]


def _softmax(values: np.ndarray, temperature: float) -> np.ndarray:
    weights = np.exp((values - values.max()) / temperature)
    shares: np.ndarray = weights / weights.sum()
    return shares


class Areas:
    """The listed things' and the whole descriptions' vectors, and the captured calls."""

    def __init__(self, data: dict[str, list[pr.Record]]) -> None:
        embedder = OnnxMiniLMEmbedder()
        self.things = np.asarray(
            asyncio.run(embedder.embed(list(AREA_PHRASES), "document")), dtype=np.float32
        )
        self.whole = np.asarray(
            asyncio.run(embedder.embed([a.description for a in AREAS], "document")),
            dtype=np.float32,
        )
        self.calls = {id(c["profile"]): c for rs in data.values() for r in rs for c in r["calls"]}
        counts = _segments()
        if sum(counts) != len(AREA_PHRASES):
            raise ValueError("the areas' listed things do not split as text/areas.py does")
        self.starts = np.cumsum([0, *counts[:-1]])

    def request_shares(
        self, q: np.ndarray, weights: tuple[float, float, float], temperature: float, cut: Any
    ) -> np.ndarray:
        cosine = self.things @ q
        pieces = np.split(cosine, self.starts[1:])
        nearest = np.array([p.max() for p in pieces])
        mean3 = np.array([np.sort(p)[-3:].mean() for p in pieces])
        z = weights[0] * nearest + weights[1] * mean3 + weights[2] * (self.whole @ q)
        if cut is not None:
            margin, spread = cut
            order = np.argsort(-z)
            if z[order[0]] - z[order[1]] < margin:
                if spread == "none":
                    return np.full(len(AREAS), 1.0 / len(AREAS))
                near = (z >= z[order[0]] - margin).astype(float)
                out: np.ndarray = near / near.sum()
                return out
        return _softmax(z, temperature)

    def request(
        self, weights: tuple[float, float, float], temperature: float = 0.02, cut: Any = None
    ) -> Choose:
        def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
            call = self.calls.get(id(profile))
            given = list(inputs)
            if call is not None and call["qvec"] is not None and given[5] is not None:
                q = np.asarray(call["qvec"], dtype=np.float32)
                given[5] = self.request_shares(q, weights, temperature, cut)
            return profile_choose.choose(profile, *given)

        return choose


def _segments() -> list[int]:
    """How many things each area lists, in AREAS order (as ``text/areas.py`` splits)."""
    counts = []
    for area in AREAS:
        listed = area.description.split(":", 1)[-1]
        pieces = [p.strip(" .") for p in listed.replace(" and ", ",").split(",")]
        counts.append(len([p for p in pieces if p]))
    return counts


def tags(mix: float) -> Choose:
    blended: dict[int, Profile] = {}

    def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
        if id(profile) not in blended:
            rows = []
            for s in profile.entries:
                for f in s.statements:
                    named = areas_of_tags(f.scope_tags)
                    v = np.array([1.0 if a.name.value in named else 0.0 for a in AREAS])
                    rows.append(v / v.sum() if v.sum() else np.full(len(AREAS), 1 / len(AREAS)))
            named_shares = np.array(rows)
            own = profile.areas if profile.areas is not None else named_shares
            blended[id(profile)] = replace(profile, areas=(1 - mix) * own + mix * named_shares)
        return profile_choose.choose(blended[id(profile)], *inputs)

    return choose


def levers(areas: Areas) -> dict[str, Choose]:
    table: dict[str, Choose] = {"base": profile_choose.choose}
    for w in ((0.5, 0.5, 0.0), (0.6, 0.4, 0.0), (0.3, 0.7, 0.0), (0.5, 0.0, 0.5)):
        table[f"req-{w[0]}-{w[1]}-{w[2]}"] = areas.request(w)
    for w in ((0.4, 0.4, 0.2), (0.4, 0.3, 0.3)):
        table[f"req-{w[0]}-{w[1]}-{w[2]}"] = areas.request(w)
    for t in (0.015, 0.03):
        table[f"req-0.5-0.5-0.0-t{t}"] = areas.request((0.5, 0.5, 0.0), t)
    for m in (0.01, 0.02, 0.04):
        for spread in ("none", "near"):
            table[f"req-0.4-0.3-0.3-m{m}-{spread}"] = areas.request(
                (0.4, 0.3, 0.3), cut=(m, spread)
            )
        table[f"req-1.0-0.0-0.0-m{m}-near"] = areas.request((1.0, 0.0, 0.0), cut=(m, "near"))
    for mix in (0.25, 0.5):
        table[f"tags-{mix}"] = tags(mix)
    return table


def main() -> None:
    folder, wanted = Path(sys.argv[1]), sys.argv[2:]
    data = pr.load(folder)
    table = levers(Areas(data))
    for name in wanted or list(table):
        print(pr.evaluate(data, table[name], name), flush=True)


if __name__ == "__main__":
    main()
