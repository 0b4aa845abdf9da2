"""The sixteenth stop's levers on the standing profile's choice (issue 29, read side):
the crowding correction against the size of a user's scope, and the places after the
best, replayed from the captures of ``profile_replay.py capture`` on every set's halves
(``docs/constraints.md``, "The crowding correction in a small scope").

Sets (a capture file each in DIR, any missing is skipped): ``pr``, ``prm``, ``pr3``
(``preference_requests.py`` on its three data files), ``ctl``, ``ctlm``
(``cue_trigger_long.py`` at the end and mid-conversation), ``ct`` (``cue_trigger.py``).
Printed per set: cue in the packet (pairs, rate) / the other preferences shown
(``pr``, ``prm``, ``pr3``, ``ct``: distractors) or the unrelated constraints a packet
(``ctl``, ``ctlm``), for the half asked (``--half``; choose on ``tune`` only).

``--ranks`` prints instead how often each reading of an entry puts the cue first / in
the top 2 / top 3 of its user's entries: its cosine with the request, its closeness
(the cosine with the graded area and listed things), the score's closeness less the
crowding at weights 2.5 and 1.

Levers (every one starts from the shipped choice and changes one thing):

- ``cwW``: crowding weight ``W`` (shipped 2.5);
- ``nscaleN``: the crowding weight times ``min(1, n / N)`` for a user of ``n`` entries;
- ``onesided-B``: an entry's crowding below its user's mean counts ``B`` of its distance
  below (0: an entry less crowded than the mean gains nothing for it; the correction
  only holds hubs down);
- ``centred-W``: the cosine with the request after taking the mean of the user's
  statements from both (scope centring), crowding weight ``W``;
- ``destanceB``: each entry's crowding measured after ``B`` times its part along a
  stance direction is taken away (the mean of twenty stance sentences about nothing,
  "I can't stand it.", "I'd rather not.", "It's my favourite." ..., less the mean of
  the listed things), the stances' hubness blended in as shipped: what crowds an entry
  among ten preferences on ten topics is mostly the stance words they share;
- ``withinM``: after the best, entries within ``M`` of it (shipped 0.35);
- ``detimeB``: the request's vector with ``B`` times its excess along the time and
  schedule area taken away (the mean of that area's listed things less the mean of all
  of them: "for Friday", "tonight" pull a request toward every statement about times),
  its cosines and its area and thing shares from the vector so changed;
- ``closebest``: the entry closest to the request (no crowding, no stand-out floor)
  carried after the shipped choice when that left it out;
- ``max3``: three places, not four;
- ``stepcarried``: the constraint step's best pick shown only when the profile carries
  it too (or carried nothing).

Usage (repository root): ``PYTHONPATH=src:benchmarks python
benchmarks/profile_replay_scope.py DIR [--half tune|check] [--ranks] [LEVER ...]``.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import pickle
import re
import statistics
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import profile_replay as pr

from cognimem.providers.onnx import OnnxMiniLMEmbedder
from cognimem.recall import profile_choose
from cognimem.recall.profile import Profile, ProfileEntry
from cognimem.recall.profile_consolidate import crowding_of, stance_hubness
from cognimem.recall.profile_read import entries_in_turn
from cognimem.text.areas import AREA_PHRASES, AREAS, area_shares, thing_shares

SETS = ("pr", "prm", "pr3", "ctl", "ctlm", "ct")
Choose = Callable[..., list[ProfileEntry]]
Simulate = Callable[[pr.Record, Choose], tuple[bool, int, int]]


def listed(description: str) -> list[str]:
    """The things an area's description lists (as ``text/areas.py`` reads them)."""
    pieces = (p.strip(" .") for p in re.split(r",| and ", description.split(":", 1)[-1]))
    return [p for p in pieces if p]


def closeness(profile: Profile, inputs: list[Any]) -> np.ndarray:
    """Per statement, the closeness the profile ranks by (``profile_choose.choose``): the
    cosine with the request plus the graded area and the listed things shared."""
    semantic, config, areas, things = inputs[0], inputs[4], inputs[5], inputs[6]
    out: np.ndarray = np.asarray(semantic)[profile.columns.rows].astype(np.float64)
    if config.area_affinity and areas is not None and profile.areas is not None:
        out = out + config.area_affinity * (profile.areas @ areas)
    if config.thing_affinity and things is not None and profile.things is not None:
        out = out + config.thing_affinity * (profile.things @ things)
    return out


def load(folder: Path, half: str) -> dict[str, list[pr.Record]]:
    out: dict[str, list[pr.Record]] = {}
    for name in SETS:
        path = folder / f"{name}.pkl"
        if not path.exists():
            continue
        first: dict[str, pr.Record] = {}
        for record in pickle.loads(path.read_bytes()):
            first.setdefault(record["id"], record)  # the default preset's read
        out[name] = [r for r in first.values() if r["split"] == half]
    return out


def evaluate(data: dict[str, list[pr.Record]], choose: Choose, label: str, sim: Simulate) -> str:
    parts = []
    for name, records in data.items():
        if not records:
            continue
        done = [sim(r, choose) for r in records]
        hit = sum(d[0] for d in done)
        extra = statistics.mean(d[1] if name in ("ctl", "ctlm") else d[2] for d in done)
        parts.append(f"{name} {hit}/{len(done)} {hit / len(done):.3f}/{extra:.2f}")
    return f"{label:16s} " + "  ".join(parts)


def with_config(**changes: Any) -> Choose:
    def choose(profile: Profile, semantic: Any, area: Any, tagged: Any, at: Any, config: Any,
               *rest: Any) -> list[ProfileEntry]:  # fmt: skip
        changed = replace(config, **changes)
        return profile_choose.choose(profile, semantic, area, tagged, at, changed, *rest)

    return choose


def scaled(n_full: int) -> Choose:
    def choose(profile: Profile, semantic: Any, area: Any, tagged: Any, at: Any, config: Any,
               *rest: Any) -> list[ProfileEntry]:  # fmt: skip
        weight = config.crowding_weight * min(1.0, len(profile.entries) / n_full)
        changed = replace(config, crowding_weight=weight)
        return profile_choose.choose(profile, semantic, area, tagged, at, changed, *rest)

    return choose


def one_sided(below: float) -> Choose:
    cache: dict[int, Profile] = {}

    def recrowd(profile: Profile) -> Profile:
        crowding = np.array([s.crowding for s in profile.entries])
        mean = crowding.mean()
        new = np.where(crowding > mean, crowding, mean + below * (crowding - mean))
        entries = tuple(
            replace(s, crowding=float(c)) for s, c in zip(profile.entries, new, strict=True)
        )
        return replace(profile, entries=entries)

    def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
        if id(profile) not in cache:
            cache[id(profile)] = recrowd(profile) if len(profile.entries) > 1 else profile
        return profile_choose.choose(cache[id(profile)], *inputs)

    return choose


def centred(calls: dict[int, pr.Record], weight: float) -> Choose:
    def choose(profile: Profile, semantic: Any, area: Any, tagged: Any, at: Any, config: Any,
               *rest: Any) -> list[ProfileEntry]:  # fmt: skip
        call = calls[id(profile)]
        changed = replace(config, crowding_weight=weight)
        if call["vectors"] is not None and call["qvec"] is not None:
            vectors = np.asarray(call["vectors"], dtype=np.float64)
            mean = vectors.mean(axis=0)
            v, q = vectors - mean, np.asarray(call["qvec"], dtype=np.float64) - mean
            cosine = (v @ q) / (np.linalg.norm(v, axis=1) * np.linalg.norm(q) + 1e-9)
            semantic = np.array(semantic, dtype=np.float64)
            semantic[profile.columns.rows] = cosine
        return profile_choose.choose(profile, semantic, area, tagged, at, changed, *rest)

    return choose


STANCES = (
    "I don't like it.", "I can't stand it.", "I hate that.", "I'd rather not.",
    "I prefer not to.", "I avoid that.", "I never do that.", "I always do that.",
    "I love it.", "I really enjoy that.", "It's my favourite.", "I'm a big fan of it.",
    "I refuse to do that.", "That's not my thing.", "I'm not a fan.",
    "I prefer this to that.", "I won't do it.", "I can't do that anymore.",
    "I have no interest in it.", "I only ever do that.",
)  # fmt: skip


def destanced(calls: dict[int, pr.Record], beta: float) -> Choose:
    embedder = OnnxMiniLMEmbedder()
    phrases = np.asarray(asyncio.run(embedder.embed(list(AREA_PHRASES), "document")))
    stances = np.asarray(asyncio.run(embedder.embed(list(STANCES), "document")))
    direction = stances.mean(axis=0) - phrases.mean(axis=0)
    direction = direction / np.linalg.norm(direction)
    cache: dict[int, Profile] = {}

    def recrowd(profile: Profile) -> Profile:
        call = calls[id(profile)]
        if call["vectors"] is None or len(profile.entries) < 2:
            return profile
        heads = np.asarray(call["vectors"], dtype=np.float64)[profile.columns.starts]
        heads = heads / np.linalg.norm(heads, axis=1, keepdims=True)
        moved = heads - beta * np.outer(heads @ direction, direction)
        moved = moved / np.linalg.norm(moved, axis=1, keepdims=True)
        crowding = crowding_of(moved @ moved.T, 5, pr.one_message(profile))
        entries = tuple(
            replace(s, crowding=c) for s, c in zip(profile.entries, crowding, strict=True)
        )
        return stance_hubness(
            replace(profile, entries=entries), heads.astype(np.float32), phrases, 0.35
        )

    def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
        if id(profile) not in cache:
            cache[id(profile)] = recrowd(profile)
        return profile_choose.choose(cache[id(profile)], *inputs)

    return choose


def detimed(calls: dict[int, pr.Record], beta: float) -> Choose:
    embedded = asyncio.run(OnnxMiniLMEmbedder().embed(list(AREA_PHRASES), "document"))
    phrases = np.asarray(embedded, dtype=np.float32)
    sizes = [len(listed(a.description)) for a in AREAS]
    at = [a.name.value for a in AREAS].index("schedule")
    start = sum(sizes[:at])
    time = phrases[start : start + sizes[at]].mean(axis=0) - phrases.mean(axis=0)
    time = time / np.linalg.norm(time)

    def choose(profile: Profile, semantic: Any, area: Any, tagged: Any, at: Any, config: Any,
               *rest: Any) -> list[ProfileEntry]:  # fmt: skip
        call = calls[id(profile)]
        if call["vectors"] is None or call["qvec"] is None:
            return profile_choose.choose(profile, semantic, area, tagged, at, config, *rest)
        q = np.asarray(call["qvec"], dtype=np.float64)
        q = q - beta * max(float(q @ time), 0.0) * time
        q = q / np.linalg.norm(q)
        semantic = np.array(semantic, dtype=np.float64)
        semantic[profile.columns.rows] = np.asarray(call["vectors"], dtype=np.float64) @ q
        vector = q.astype(np.float32)[None, :]
        areas, things = rest[0], rest[1]
        if areas is not None:
            areas = area_shares(vector, phrases, config.area_temperature)[0]
        if things is not None:
            things = thing_shares(vector, phrases, config.thing_temperature)[0]
        return profile_choose.choose(profile, semantic, area, tagged, at, config, areas, things)

    return choose


def close_best(profile: Profile, semantic: Any, area: Any, tagged: Any, at: Any, config: Any,
               *rest: Any) -> list[ProfileEntry]:  # fmt: skip
    out = profile_choose.choose(profile, semantic, area, tagged, at, config, *rest)
    plain = replace(config, crowding_weight=0.0, stand_out=None, then_stand_out=None)
    closest = profile_choose.choose(profile, semantic, area, tagged, at, plain, *rest)[:1]
    carried = {e.standing.fact.id for e in out}
    return out + [e for e in closest if e.standing.fact.id not in carried]


def step_when_carried(record: pr.Record, choose: Choose) -> tuple[bool, int, int]:
    """``profile_replay.simulate`` with the step's best pick shown only when the
    profile carries it too, or carried nothing."""
    shown = record["packet"]
    if not record["calls"]:
        return pr.simulate(record, choose)
    picked = entries_in_turn([choose(c["profile"], *c["inputs"]) for c in record["calls"]])
    carried = [set(e.standing.event_ids()) for e in picked]
    step = list(shown["step"][:1])
    constraint = [s for s in step if any(s & c for c in carried) or not carried]
    for events in carried:
        if len(constraint) >= 4:
            break
        if not any(events & s for s in constraint):
            constraint.append(events)
    real = set().union(*shown["constraint"]) if shown["constraint"] else set()
    every = [*(s for s in shown["items"] if not s & real), *constraint, *shown["rest"]]
    events = set().union(*every) if every else set()
    others = record["others"] or {}
    return (
        any(record["cue"] in s for s in every),
        sum(record["cue"] not in s for s in constraint),
        len({v for k, v in others.items() if k in events}),
    )


def ranks(data: dict[str, list[pr.Record]]) -> None:
    for name, records in data.items():
        found: dict[str, list[int]] = {"cosine": [], "closeness": [], "w2.5": [], "w1": []}
        for r in records:
            if not r["calls"]:
                continue
            profile, inputs = r["calls"][0]["profile"], r["calls"][0]["inputs"]
            at = [i for i, s in enumerate(profile.entries) if r["cue"] in s.event_ids()]
            if not at:
                continue  # never recorded as a constraint
            c = profile.columns
            cosine = np.maximum.reduceat(np.asarray(inputs[0])[c.rows].astype(float), c.starts)
            close = np.maximum.reduceat(closeness(profile, inputs), c.starts)
            readings = (cosine, close, close - 2.5 * c.crowding, close - c.crowding)
            for key, values in zip(found, readings, strict=True):
                found[key].append(int((values > values[at[0]]).sum()))
        line = "  ".join(
            f"{k} {np.mean(np.array(v) == 0):.3f}/{np.mean(np.array(v) < 2):.3f}/"
            f"{np.mean(np.array(v) < 3):.3f}"
            for k, v in found.items()
        )
        print(f"{name} ({len(found['cosine'])} recorded cues): {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("levers", nargs="*")
    parser.add_argument("--half", choices=("tune", "check"), default="tune")
    parser.add_argument("--ranks", action="store_true")
    args = parser.parse_intermixed_args()
    data = load(args.folder, args.half)
    if args.ranks:
        ranks(data)
        return
    calls = {id(c["profile"]): c for rs in data.values() for r in rs for c in r["calls"]}
    table: dict[str, tuple[Choose, Simulate]] = {"base": (profile_choose.choose, pr.simulate)}
    for w in (1.5, 3.0):
        table[f"cw{w}"] = (with_config(crowding_weight=w), pr.simulate)
    for n in (20, 30):
        table[f"nscale{n}"] = (scaled(n), pr.simulate)
    for below in (0.0, 0.5):
        table[f"onesided-{below}"] = (one_sided(below), pr.simulate)
    table["centred-1.5"] = (centred(calls, 1.5), pr.simulate)
    if not args.levers or any(n.startswith("destance") for n in args.levers):
        for beta in (0.5, 1.0):
            table[f"destance{beta}"] = (destanced(calls, beta), pr.simulate)
    for m in (0.34, 0.3):
        table[f"within{m}"] = (with_config(within=m), pr.simulate)
    if not args.levers or any(n.startswith("detime") for n in args.levers):
        for beta in (0.5, 1.0):
            table[f"detime{beta}"] = (detimed(calls, beta), pr.simulate)
    table["closebest"] = (close_best, pr.simulate)
    table["max3"] = (profile_choose.choose, functools.partial(pr.simulate, max_entries=3))
    table["stepcarried"] = (profile_choose.choose, step_when_carried)
    for name in args.levers or table:
        choose, sim = table[name]
        print(evaluate(data, choose, name, sim), flush=True)


if __name__ == "__main__":
    main()
