"""The levers of issue 29's preference stop with a fourth set (helper prefs21),
replayed from the captures of ``profile_replay.py capture`` (any ``*.pkl`` of a
folder, named by its file). Every lever starts from the shipped choice (``base``) and
changes one thing:

- ``mutual-M``: the closeness gains ``M`` times how far the request stands out among
  the listed things of the decision areas *for the statement* (its cosine with the
  request less its mean cosine with the listed things, in their standard deviations):
  the profile asks whether an entry stands out among the user's entries for the
  request; this asks the other way round, whether the request stands out among
  everyday things for the entry. A statement near every day-to-day thing ("… my
  favourite way to start the day") is near every request too;
- ``mutualtop-M``: the same against the mean of the statement's ten nearest listed
  things (a local scale, as CSLS in cross-lingual retrieval);
- ``reciprocal-B-R[-siblings][-leastN]``: a statement the request is nearer to than
  to all but ``R`` statements of the user's other entries gains ``B`` in closeness
  (``-siblings``: entries drawn from one of its messages left out, as the crowding
  does; ``-leastN``: only with at least ``N`` such entries). ``reciprocal-0.05-0``
  with both is what ``ProfileConfig.reciprocal`` ships; ``+stepnear-0`` also keeps the
  step's pick only when the request is one of its statements' nearest neighbour;
- ``elbow-G``: after the best, the entries only down to the widest drop in score
  among the places, when that drop is ``G`` or more (a cap tied to the score gap);
- ``stepnear-K``: the constraint step's best pick keeps its place only when the
  profile carries it or its closeness is among the profile's ``K`` best.

Usage (repository root): ``PYTHONPATH=src:benchmarks python
benchmarks/profile_replay_mutual.py [--half tune|check] DIR [LEVER ...]`` (``DIR``:
the ``*.pkl`` captures; docs/constraints.md, "The request as a statement's nearest
neighbour", gives the numbers).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import statistics
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import profile_replay as pr

from cognimem.providers.onnx import OnnxMiniLMEmbedder
from cognimem.recall import profile_choose
from cognimem.recall.profile import Profile, ProfileEntry
from cognimem.text.areas import AREA_PHRASES

Choose = Callable[..., list[ProfileEntry]]
Record = dict[str, Any]


def load(folder: Path) -> dict[str, list[Record]]:
    return {path.stem: pr.first_reads(path) for path in sorted(folder.glob("*.pkl"))}


def mutual(
    things: np.ndarray,
    weight: float,
    top: int | None = None,
    crowding: float | None = None,
    shape: str = "z",
) -> Choose:
    def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
        call = CALLS[id(profile)]
        if crowding is not None:
            inputs = (*inputs[:4], replace(inputs[4], crowding_weight=crowding), *inputs[5:])
        if call["vectors"] is None or call["qvec"] is None or not weight:
            return profile_choose.choose(profile, *inputs)
        vectors = np.asarray(call["vectors"], dtype=np.float64)
        q = np.asarray(call["qvec"], dtype=np.float64)
        q = q / (np.linalg.norm(q) + 1e-9)
        v = vectors / (np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-9)
        to_things = v @ things.T  # statements x listed things
        if top is not None:
            near = np.sort(to_things, axis=1)[:, -top:]
            mean, std = near.mean(axis=1), to_things.std(axis=1)
        else:
            mean, std = to_things.mean(axis=1), to_things.std(axis=1)
        z = (v @ q - mean) / (std + 1e-9)
        if shape == "pos":
            z = np.maximum(z, 0.0)
        elif shape == "stance":
            kinds = [f.category.value for s in profile.entries for f in s.statements]
            z = z * np.array([k in ("policy", "value") for k in kinds])
        semantic = np.array(inputs[0], dtype=np.float64)
        rows = profile.columns.rows
        semantic[rows] = semantic[rows] + weight * 0.1 * z
        return profile_choose.choose(profile, semantic, *inputs[1:])

    return choose


def standing_out(things: np.ndarray, call: Record, top: int | None = None) -> np.ndarray:
    """Per statement (the profile's columns): how far the request stands out among the
    listed things for it, in their standard deviations."""
    vectors = np.asarray(call["vectors"], dtype=np.float64)
    q = np.asarray(call["qvec"], dtype=np.float64)
    q = q / (np.linalg.norm(q) + 1e-9)
    v = vectors / (np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-9)
    to_things = v @ things.T
    mean = np.sort(to_things, axis=1)[:, -top:].mean(axis=1) if top else to_things.mean(axis=1)
    z: np.ndarray = (v @ q - mean) / (to_things.std(axis=1) + 1e-9)
    return z


def mutual_gate(things: np.ndarray, floor: float, top: int | None = None) -> Choose:
    """After the best, an entry keeps its place only when the request stands out for
    it by ``floor`` (``standing_out``, its statements' best)."""

    def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
        out = profile_choose.choose(profile, *inputs)
        call = CALLS[id(profile)]
        if len(out) < 2 or call["vectors"] is None or call["qvec"] is None:
            return out
        z = standing_out(things, call, top)
        c = profile.columns
        best = np.maximum.reduceat(z, c.starts)
        at = {s.fact.id: i for i, s in enumerate(profile.entries)}
        return [out[0], *(e for e in out[1:] if best[at[e.standing.fact.id]] >= floor)]

    return choose


def reciprocal(
    bonus: float,
    rank: int = 0,
    inner: Choose | None = None,
    siblings: bool = False,
    least: int = 0,
) -> Choose:
    """An entry for which the request is nearer than all but ``rank`` of the user's
    other entries (by its statements' vectors) gains ``bonus`` in closeness."""

    def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
        call = CALLS[id(profile)]
        then = inner or profile_choose.choose
        if call["vectors"] is None or call["qvec"] is None:
            return then(profile, *inputs)
        v = np.asarray(call["vectors"], dtype=np.float64)
        v = v / (np.linalg.norm(v, axis=1, keepdims=True) + 1e-9)
        q = np.asarray(call["qvec"], dtype=np.float64)
        q = q / (np.linalg.norm(q) + 1e-9)
        entry = profile.columns.entry
        sims = v @ v.T
        sims[entry[:, None] == entry[None, :]] = -np.inf  # not its own entry
        if siblings:  # nor an entry drawn from one of its messages
            sims[pr.one_message(profile)[np.ix_(entry, entry)]] = -np.inf
        to_q = v @ q
        closer = (sims > to_q[:, None]).sum(axis=1)
        if least:  # only with enough other entries to be nearest among
            counted = np.isfinite(sims)
            others = np.array([len(set(entry[row])) for row in counted])
            closer[others < least] = rank + 1
        semantic = np.array(inputs[0], dtype=np.float64)
        rows = profile.columns.rows
        semantic[rows] = semantic[rows] + bonus * (closer <= rank)
        return then(profile, semantic, *inputs[1:])

    return choose


def elbow(gap: float) -> Choose:
    def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
        out = profile_choose.choose(profile, *inputs)
        if len(out) < 3:
            return out
        scores = [e.score for e in out[:4]]
        drops = [a - b for a, b in itertools.pairwise(scores)]
        widest = max(range(len(drops)), key=lambda i: drops[i])
        return out[: widest + 1] if drops[widest] >= gap else out

    return choose


CALLS: dict[int, Record] = {}


def simulate(record: Record, choose: Choose, step_near: int | None) -> tuple[bool, int, int]:
    if step_near is None or not record["calls"] or not record["packet"]["step"]:
        return pr.simulate(record, choose)
    call = record["calls"][0]
    picked = choose(call["profile"], *call["inputs"])
    step = record["packet"]["step"][0]
    carried = any(step & set(e.standing.event_ids()) for e in picked)
    if carried:
        return pr.simulate(record, choose)
    profile = call["profile"]
    semantic = np.asarray(call["inputs"][0])[profile.columns.rows]
    if step_near == 0:  # the request is one of its statements' nearest neighbour
        order = np.flatnonzero(semantic >= _nearest(profile))
    else:
        order = np.argsort(-semantic)[:step_near]
    near = set().union(*(set(profile.entries[profile.columns.entry[i]].event_ids()) for i in order))
    if step & near:
        return pr.simulate(record, choose)
    shown = dict(record["packet"])
    shown["step"] = []
    return pr.simulate({**record, "packet": shown}, choose)


def _nearest(profile: Profile) -> np.ndarray:
    call = CALLS[id(profile)]
    v = np.asarray(call["vectors"], dtype=np.float64)
    v = v / (np.linalg.norm(v, axis=1, keepdims=True) + 1e-9)
    entry = profile.columns.entry
    sims = v @ v.T
    sims[entry[:, None] == entry[None, :]] = -np.inf
    sims[pr.one_message(profile)[np.ix_(entry, entry)]] = -np.inf
    out: np.ndarray = sims.max(axis=1) if len(sims) else np.zeros(0)
    return out


def evaluate(
    data: dict[str, list[Record]], choose: Choose, half: str, step_near: int | None
) -> str:
    parts = []
    for name, records in data.items():
        done = [simulate(r, choose, step_near) for r in records if r["split"] == half]
        if not done:
            continue
        hits = sum(d[0] for d in done)
        extra = statistics.mean(d[2] if r0(records) else d[1] for d in done)
        parts.append(f"{name} {hits}/{len(done)} {hits / len(done):.3f}/{extra:.2f}")
    return "  ".join(parts)


def r0(records: Sequence[Record]) -> bool:
    return bool(records and records[0]["others"] is not None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--half", choices=("tune", "check"), default="tune")
    parser.add_argument("lever", nargs="*")
    args = parser.parse_args()
    data = load(args.folder)
    CALLS.update({id(c["profile"]): c for rs in data.values() for r in rs for c in r["calls"]})
    embedded = asyncio.run(OnnxMiniLMEmbedder().embed(list(AREA_PHRASES), "document"))
    things = np.asarray(embedded, dtype=np.float64)
    things /= np.linalg.norm(things, axis=1, keepdims=True)
    table: dict[str, tuple[Choose, int | None]] = {"base": (profile_choose.choose, None)}
    for m in (0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5):
        table[f"mutual-{m}"] = (mutual(things, m), None)
        table[f"mutualtop-{m}"] = (mutual(things, m, 10), None)
    for m in (0.15, 0.2, 0.25, 0.3):
        for w in (1.5, 2.0, 3.0):
            table[f"mutualcw-{m}-{w}"] = (mutual(things, m, None, w), None)
    for m in (0.15, 0.2, 0.3):
        table[f"mutualpos-{m}"] = (mutual(things, m, None, None, "pos"), None)
        table[f"mutualstance-{m}"] = (mutual(things, m, None, None, "stance"), None)
        table[f"mutualpos-{m}-1.5"] = (mutual(things, m, None, 1.5, "pos"), None)
    for b in (0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.1):
        for r in (0, 1, 2):
            table[f"reciprocal-{b}-{r}"] = (reciprocal(b, r), None)
    table["reciprocal-0.05-0+mutualcw-0.2-1.5"] = (
        reciprocal(0.05, 0, mutual(things, 0.2, None, 1.5)),
        None,
    )
    for b in (0.04, 0.05, 0.06):
        table[f"reciprocal-{b}-0-siblings"] = (reciprocal(b, 0, None, True), None)
    for least in (3, 5):
        table[f"reciprocal-0.05-0-siblings-least{least}"] = (
            reciprocal(0.05, 0, None, True, least),
            None,
        )
    table["reciprocal-0.05-0+stepnear-1"] = (reciprocal(0.05, 0), 1)
    table["reciprocal-0.05-0-siblings+stepnear-0"] = (reciprocal(0.05, 0, None, True), 0)
    for z in (0.0, 0.5, 1.0, 1.5, 2.0):
        table[f"mutualgate-{z}"] = (mutual_gate(things, z), None)
        table[f"mutualgatetop-{z}"] = (mutual_gate(things, z - 2.0, 10), None)
    for g in (0.05, 0.1, 0.15):
        table[f"elbow-{g}"] = (elbow(g), None)
    for k in (1, 2, 3):
        table[f"stepnear-{k}"] = (profile_choose.choose, k)
    for name in args.lever or table:
        choose, near = table[name]
        print(f"{name:16s} {evaluate(data, choose, args.half, near)}", flush=True)


if __name__ == "__main__":
    main()
