"""Why a preference does not reach its request (issue 29, eighteenth stop), from the
captures of ``profile_replay.py capture`` (any ``*.pkl`` of the folders given, named by
its file; a read's first capture is the default preset's).

``classes`` puts each miss of the half asked in one class — not a decision (no profile
read), never recorded as a constraint, recorded but stale (decayed out) or with no
evidence, ranked below others and not carried, carried but past the four places — and
prints the recorded misses' rank among their user's entries by the profile's score, by
its closeness (cosine, graded area, listed things, the nearest-neighbour bonus) and by
the plain cosine.

``views`` prints how often the cue is first / in the top 3 of its user's recorded
entries by the plain cosine with the request and by the cosine with each entry's text
said with the description of its nearest decision area (``text/areas.py``: the area of
its nearest listed thing), alone and averaged with the plain cosine (embeds every
entry's text again: a minute on a busy machine).

``levers`` replays the shipped choice and each lever (every one changes one thing):

- ``apart-M``: after the best, an entry (but one sharing the request's scope tag and
  decision area) is carried only when it is at least as close to the request, less
  ``M``, as to the best entry: one near the best rather than the request is carried for
  what the two share (among ten preferences, the stance words);
- ``nbgate-R``: after the best, an entry (the same exemption) is carried only when the
  request is nearer to it than its ``R``-th nearest entry of another message (the
  shipped ``reciprocal`` bonus as a gate);
- ``crowdfloor-Z``: each entry's crowding counted no lower than the mean of the
  user's entries' less ``Z`` standard deviations (an anti-hub is not lifted by its
  low crowding);
- ``stancefloor-Z``: as ``crowdfloor-Z`` for the stances (policy, value) only, on the
  mean and spread of the stances' crowding (goals, states and causes keep theirs);
- ``closefloor-Z``: every entry, the best included, needs its closeness at least ``Z``
  standard deviations above the mean closeness of the user's live entries, or a shared
  scope tag (the evidence floor raised): an entry far from the request that leads by
  its crowding alone (an anti-hub) is not carried.

``unstated N SCRIPT [ARG ...]`` runs a benchmark for real with
``ProfileConfig.unstated_near`` at ``N`` (``none``: off): on a decision the profile
carried something for, a memory no constraint was drawn from keeps its place among the
items only with evidence of its own or among the ``N`` memories nearest the request
(``recall/profile_items.py``).

Usage (repository root): ``PYTHONPATH=src:benchmarks python
benchmarks/preference_requests_misses.py {classes,views,levers} DIR [DIR ...]
[--half tune|check]``, or ``... unstated N|none benchmarks/preference_requests.py
--split tune ...`` (choose on ``tune`` only; ``benchmarks/results/preference_requests_fifth.md``
gives the numbers).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from math import inf
from pathlib import Path
from typing import Any

import numpy as np
import profile_replay as pr

from cognimem.recall import profile_choose
from cognimem.recall.profile import Profile, ProfileConfig, ProfileEntry
from cognimem.text.areas import AREA_PHRASES, AREAS, area_shares

Record = dict[str, Any]
Choose = Callable[..., list[ProfileEntry]]
Lever = Callable[[Record], Choose]  # a choose per captured profile call


def _rank(values: np.ndarray, at: int) -> int:
    return int((values > values[at]).sum()) + 1


def _miss_class(record: Record) -> tuple[str, tuple[int, int, int] | None]:
    """The class of a miss, and the recorded cue's rank by score, closeness, cosine."""
    if not record["calls"]:
        return "not a decision", None
    call = record["calls"][0]
    profile, inputs = call["profile"], call["inputs"]
    at = pr.cue_entry(profile, record["cue"])
    if at is None:
        return "not recorded", None
    semantic, area, tagged, when, config, *shares = inputs
    ranked = profile_choose.choose(profile, semantic, area, tagged, when, pr.uncut(config), *shares)
    place = next((i for i, e in enumerate(ranked) if e.standing is profile.entries[at]), None)
    if place is None:
        return "stale or no evidence", None
    chosen = profile_choose.choose(profile, *inputs)
    cls = (
        "carried, past the places"
        if any(e.standing is profile.entries[at] for e in chosen)
        else "ranked below, not carried"
    )
    closeness = np.array([e.signals["semantic"] for e in ranked])
    cosine = np.maximum.reduceat(np.asarray(semantic)[profile.columns.rows], profile.columns.starts)
    return cls, (place + 1, _rank(closeness, place), _rank(cosine, at))


def classes(data: dict[str, list[Record]], half: str) -> None:
    for name, records in data.items():
        misses = [
            r
            for r in records
            if r["split"] == half and not pr.simulate(r, profile_choose.choose)[0]
        ]
        counted: Counter[str] = Counter()
        ranks: list[tuple[int, int, int]] = []
        for record in misses:
            cls, rank = _miss_class(record)
            counted[cls] += 1
            if rank is not None:
                ranks.append(rank)
        done = sum(r["split"] == half for r in records)
        print(f"{name}: {len(misses)} misses of {done}: {dict(counted)}")
        for label, i in (("score", 0), ("closeness", 1), ("cosine", 2)):
            print(f"    recorded misses' rank by {label}: {sorted(r[i] for r in ranks)}")


def _unit(vectors: Any) -> np.ndarray:
    v = np.asarray(vectors, dtype=np.float64)
    norm = np.linalg.norm(v, axis=-1, keepdims=True)
    out: np.ndarray = v / np.where(norm == 0, 1.0, norm)
    return out


def _described(texts: Sequence[str], embed: Callable[[list[str]], np.ndarray]) -> list[str]:
    """Each text said with the description of its nearest decision area (the area of
    its nearest listed thing)."""
    things = _unit(embed(list(AREA_PHRASES))).astype(np.float32)
    nearest = area_shares(_unit(embed(list(texts))), things, 0.02).argmax(axis=1)
    return [f"{t} ({AREAS[j].description})" for t, j in zip(texts, nearest, strict=True)]


def views(data: dict[str, list[Record]], half: str) -> None:
    from cognimem.providers.onnx import OnnxMiniLMEmbedder

    embedder = OnnxMiniLMEmbedder()
    cache: dict[str, np.ndarray] = {}

    def embed(texts: list[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in cache]
        if missing:
            cache.update(zip(missing, embedder.embed_sync(missing), strict=True))
        return np.array([cache[t] for t in texts])

    for name, records in data.items():
        counts: dict[str, Counter[str]] = {}
        for record in records:
            if record["split"] != half or not record["calls"] or record["calls"][0]["qvec"] is None:
                continue
            call = record["calls"][0]
            at = pr.cue_entry(call["profile"], record["cue"])
            if at is None:
                continue
            texts = [s.fact.text for s in call["profile"].entries]
            request = _unit(call["qvec"])
            plain = _unit(embed(texts)) @ request
            described = _unit(embed(_described(texts, embed))) @ request
            for label, values in (
                ("plain", plain),
                ("described", described),
                ("mean", (plain + described) / 2),
            ):
                rank = _rank(values, at)
                counts.setdefault(label, Counter()).update(
                    ["n", *(["first"] if rank == 1 else []), *(["top3"] if rank <= 3 else [])]
                )
        for label, c in counts.items():
            print(
                f"{name} {label}: first {c['first'] / c['n']:.3f}, "
                f"top 3 {c['top3'] / c['n']:.3f} (n {c['n']})"
            )


# -- levers ---------------------------------------------------------------------------


def _exempt(entry: ProfileEntry) -> bool:
    return bool(entry.signals["tags"] and entry.signals["area"])


def _heads(call: Record) -> tuple[np.ndarray, np.ndarray, dict[int, int]] | None:
    if call["vectors"] is None or call["qvec"] is None:
        return None
    profile = call["profile"]
    heads = _unit(call["vectors"])[profile.columns.starts]
    return heads, _unit(call["qvec"]), {id(s): i for i, s in enumerate(profile.entries)}


def shipped(call: Record) -> Choose:
    return profile_choose.choose


def apart(margin: float) -> Lever:
    def make(call: Record) -> Choose:
        found = _heads(call)

        def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
            chosen = profile_choose.choose(profile, *inputs)
            if found is None or len(chosen) < 2:
                return chosen
            heads, request, at = found
            best = heads[at[id(chosen[0].standing)]]
            return chosen[:1] + [
                e
                for e in chosen[1:]
                if _exempt(e)
                or heads[at[id(e.standing)]] @ request + margin >= heads[at[id(e.standing)]] @ best
            ]

        return choose

    return make


def nbgate(rank: int) -> Lever:
    def make(call: Record) -> Choose:
        found = _heads(call)
        if found is None:
            return profile_choose.choose
        heads, request, at = found
        apart_ = ~(pr.one_message(call["profile"]) | np.eye(len(heads), dtype=bool))
        near = -np.sort(-np.where(apart_, heads @ heads.T, -np.inf), axis=1)
        bar = near[:, min(rank, near.shape[1]) - 1]
        close = heads @ request

        def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
            chosen = profile_choose.choose(profile, *inputs)
            return chosen[:1] + [
                e
                for e in chosen[1:]
                if _exempt(e) or close[at[id(e.standing)]] >= bar[at[id(e.standing)]]
            ]

        return choose

    return make


def closefloor(z: float) -> Lever:
    """Every entry needs its closeness ``z`` σ above the mean closeness of the user's
    live entries, or a shared scope tag: the evidence floor raised to that bar (the
    scores, their pools and the floors after the best as shipped)."""

    def make(call: Record) -> Choose:
        def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
            config: ProfileConfig = inputs[4]
            every = profile_choose.choose(profile, *inputs[:4], pr.uncut(config), *inputs[5:])
            close = [e.signals["semantic"] for e in every]
            if not close:
                return []
            bar = statistics.fmean(close) + z * statistics.pstdev(close)
            raised = replace(config, evidence_floor=max(config.evidence_floor, bar))
            return profile_choose.choose(profile, *inputs[:4], raised, *inputs[5:])

        return choose

    return make


def crowdfloor(z: float) -> Lever:
    """Each entry's crowding counted no lower than the mean of its user's entries' less
    ``z`` standard deviations: the hubness correction penalises hubs and no longer
    rewards anti-hubs (twentieth stop; dropped, ``preference_requests_stages.md``)."""

    def make(call: Record) -> Choose:
        def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
            crowding = np.array([s.crowding for s in profile.entries])
            if len(crowding) < 2:
                return profile_choose.choose(profile, *inputs)
            bar = float(crowding.mean() - z * crowding.std())
            entries = tuple(replace(s, crowding=max(s.crowding, bar)) for s in profile.entries)
            return profile_choose.choose(replace(profile, entries=entries), *inputs)

        return choose

    return make


_STANCES = frozenset({"policy", "value"})


def stancefloor(z: float) -> Lever:
    """As :func:`crowdfloor` for the stances only, the bar from the stances' own
    crowding: in a whole conversation the goals and states are the anti-hubs the
    floor took the lift from (``preference_requests_stages.md``); dropped too, the
    long set's stances lose it (``preference_requests_stages_pooled.md``)."""

    def make(call: Record) -> Choose:
        def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
            stance = np.array([s.fact.category.value in _STANCES for s in profile.entries])
            crowding = np.array([s.crowding for s in profile.entries])
            if stance.sum() < 2:
                return profile_choose.choose(profile, *inputs)
            bar = float(crowding[stance].mean() - z * crowding[stance].std())
            entries = tuple(
                replace(s, crowding=max(s.crowding, bar)) if at else s
                for s, at in zip(profile.entries, stance, strict=True)
            )
            return profile_choose.choose(replace(profile, entries=entries), *inputs)

        return choose

    return make


LEVERS: dict[str, Lever] = {
    "shipped": shipped,
    **{f"apart-{m}": apart(m) for m in (0.0, 0.05, 0.1)},
    **{f"nbgate-{r}": nbgate(r) for r in (1, 2, 3, 5)},
    **{f"closefloor-{z}": closefloor(z) for z in (-inf, -1.0, -0.5, 0.0)},
    **{f"crowdfloor-{z}": crowdfloor(z) for z in (0.0, 0.5, 1.0, 1.5)},
    **{f"stancefloor-{z}": stancefloor(z) for z in (0.0, 0.5, 1.0)},
}


def _replayed(record: Record, lever: Lever) -> tuple[bool, int, int]:
    chosen = iter([lever(c)(c["profile"], *c["inputs"]) for c in record["calls"]])
    return pr.simulate(record, lambda *_: next(chosen))


def levers(data: dict[str, list[Record]], half: str, wanted: Sequence[str]) -> None:
    for label in wanted or LEVERS:
        parts = []
        for name, records in data.items():
            done = [_replayed(r, LEVERS[label]) for r in records if r["split"] == half]
            if not done:
                continue
            hits = sum(d[0] for d in done)
            shown = statistics.fmean(d[1] if name.startswith("ctl") else d[2] for d in done)
            parts.append(f"{name} {hits}/{len(done)} ({shown:.2f})")
        print(f"{label:16s} " + "  ".join(parts), flush=True)


def unstated(near: str, script: str, args: Sequence[str]) -> None:
    """Run ``script``'s main with ``ProfileConfig.unstated_near`` at ``near`` (``none``:
    off, as before this stop) on every read's profile choice."""
    import importlib

    import cognimem.recall.reader as reader

    entries = reader.profile_entries
    value = None if near == "none" else int(near)

    async def profile_entries(run: Any, at: Any) -> Any:
        return replace(await entries(run, at), unstated_near=value)

    reader.profile_entries = profile_entries
    bench = importlib.import_module(Path(script).stem)
    sys.argv = [script, *args]
    bench.main()


def main() -> None:
    if len(sys.argv) > 3 and sys.argv[1] == "unstated":
        unstated(sys.argv[2], sys.argv[3], sys.argv[4:])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("classes", "views", "levers"))
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--half", choices=("tune", "check"), default="tune")
    parser.add_argument("--lever", action="append", default=[], choices=list(LEVERS))
    args = parser.parse_args()
    data = pr.first_reads_of(args.folders)
    if args.what == "classes":
        classes(data, args.half)
    elif args.what == "views":
        views(data, args.half)
    else:
        levers(data, args.half, args.lever)


if __name__ == "__main__":
    main()
