"""Replay the standing profile's choice (``recall/profile_choose.py``) from inputs
captured on real reads, so a lever on the choice is measured on every set in seconds.

``capture`` runs one of the constraint benchmarks (``preference_requests.py``,
``cue_trigger_long.py``, ``cue_trigger.py``, ``dilution.py``) unchanged, with the
profile step's ``choose`` and each pair's scoring wrapped: per read it keeps the
profile, the cosines, the area and tag flags, the request's area shares and view
areas, the statements' and the request's vectors, and what the packet showed (the
items' and sections' events, the constraint step's own entries). The benchmark writes
its results as usual.

``replay`` loads the captures of a folder (``pr``, ``prm``, ``ctl``, ``ctlm``, ``ct``,
``dil``) and, per lever, chooses again and rebuilds the constraint sections as the
assembly does (the step's best pick, then the profile's entries, 4 in all): the cue is
in the packet when it is in those sections, the other sections or an item that no
constraint entry of the real packet put there. On main the replay gives the read's
numbers within two pairs a half. Printed per set and half: cue in the packet / other
preferences shown (``pr``, ``prm``), unrelated constraints (``ctl``, ``ctlm``),
distractors shown (``ct``).

The ``where-KIND-MIX-crowd-CROWD-wWEIGHT`` levers blend the object's vector into
some statements only (``SELECTS``: every statement, the stances, the rules, a stance on
a thing, one whose last word is a noun); ``own-where-…`` measure each entry's crowding
in its own space, ``level-where-…`` also keep the blended entries' mean crowding;
``docs/constraints.md`` gives their numbers.

Usage (repository root; ``PYTHONPATH=src:benchmarks``):

    python benchmarks/profile_replay.py capture DIR/pr.pkl benchmarks/preference_requests.py \\
        --out DIR
    python benchmarks/profile_replay.py replay DIR [--lever NAME ...] [--areas]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import pickle
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

import cognimem.recall.profile_read as profile_read
from cognimem.providers.onnx import OnnxMiniLMEmbedder
from cognimem.recall import profile_choose
from cognimem.recall.profile import Profile, ProfileConfig, ProfileEntry
from cognimem.recall.profile_consolidate import crowding_of
from cognimem.recall.profile_read import entries_in_turn
from cognimem.text.areas import AREA_PHRASES, AREAS, area_shares, areas_of_tags
from cognimem.text.noun_senses import noun_classes

SETS = ("pr", "prm", "ctl", "ctlm", "ct", "dil")
CONSTRAINT_SECTIONS = ("must_follow", "consider")
OTHER_SECTIONS = ("facts", "preferences", "needs_validation")
Choose = Callable[..., list[ProfileEntry]]
Record = dict[str, Any]


# -- capture --------------------------------------------------------------------------


def capture(out: Path, script: str, args: Sequence[str]) -> None:
    """Run ``script``'s main with the profile's inputs captured into ``out``."""
    name = Path(script).stem
    bench = importlib.import_module(name)
    records: list[Record] = []
    pending: list[Record] = []
    seen: dict[str, Any] = {}
    cosines, choose = profile_read.cosines, profile_read.choose

    def cosines_hook(view: Any, rows: Any) -> Any:
        seen.update(rows=rows, vector=view.vector, areas=view.areas)
        return cosines(view, rows)

    def choose_hook(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
        matrix = seen["rows"].matrix
        pending.append(
            {
                "profile": profile,
                "inputs": [
                    np.asarray(x).copy() if isinstance(x, np.ndarray) else x for x in inputs
                ],
                "vectors": None if matrix is None else np.array(matrix[profile.columns.rows]),
                "qvec": None if seen["vector"] is None else np.array(seen["vector"]),
                "view_areas": sorted(seen["areas"]),
            }
        )
        return choose(profile, *inputs)

    profile_read.cosines = cosines_hook
    profile_read.choose = choose_hook
    score = bench.score

    def scored(*args: Any) -> Any:
        outcome = score(*args)
        records.append(_record(name, args, outcome, pending[:]))
        pending.clear()
        return outcome

    bench.score = scored
    sys.argv = [script, *args]
    try:
        bench.main()
    finally:
        out.write_bytes(pickle.dumps(records))
        print(f"captured {len(records)} reads into {out}")


def _record(name: str, args: tuple[Any, ...], outcome: Any, calls: list[Record]) -> Record:
    """One read's capture: ``args`` are what the benchmark's ``score`` was given."""
    if name == "cue_trigger_long":  # score(placement, cue_event, packet, scope)
        _, cue, packet, _ = args
        pair_id, split, others = outcome.pair_id, outcome.split, None
        return _captured(pair_id, split, cue, others, calls, packet)
    written, packet = args[:2]  # score(written, packet)
    if name == "preference_requests":
        pair_id, split, cue = written.pair.id, written.pair.split, written.cue_event
        others = dict(written.other_events)
    elif name == "cue_trigger":
        pair_id, split, cue = written.pair.id, written.pair.split, written.cue_event
        others = dict(written.distractor_events)
    else:
        pair_id, split, cue, others = outcome.id, "check", written.constraint_event, None
    return _captured(pair_id, split, cue, others, calls, packet)


def _captured(
    pair_id: str, split: str, cue: str, others: Any, calls: list[Record], packet: Any
) -> Record:
    return {
        "id": pair_id,
        "split": split,
        "cue": cue,
        "others": others,
        "calls": calls,
        "packet": _shown(packet),
    }


def _shown(packet: Any) -> Record:
    sections = packet.sections
    constraint = [e for n in CONSTRAINT_SECTIONS for e in getattr(sections, n)]
    return {
        "items": [set(i.source_event_ids) for i in packet.items],
        "step": [
            set(e.source_event_ids)
            for e in constraint
            if not getattr(e, "signals", {}).get("profile")
        ],
        "constraint": [set(e.source_event_ids) for e in constraint],
        "rest": [set(e.source_event_ids) for n in OTHER_SECTIONS for e in getattr(sections, n)],
    }


# -- replay ---------------------------------------------------------------------------


def first_reads(path: Path) -> list[Record]:
    """The captured records of one set, each pair's first read (the default preset's)."""
    first: dict[str, Record] = {}
    for record in pickle.loads(path.read_bytes()):
        first.setdefault(record["id"], record)
    return list(first.values())


def first_reads_of(folders: Sequence[Path]) -> dict[str, list[Record]]:
    """Each set's first reads (:func:`first_reads`), by the capture's file stem, from
    every ``*.pkl`` of ``folders``."""
    return {
        path.stem: first_reads(path) for folder in folders for path in sorted(folder.glob("*.pkl"))
    }


def cue_entry(profile: Profile, cue: str) -> int | None:
    """Where the entry drawn from the event ``cue`` stands in ``profile``, if any."""
    return next((i for i, s in enumerate(profile.entries) if cue in s.event_ids()), None)


def load(folder: Path) -> dict[str, list[Record]]:
    return {
        name: first_reads(folder / f"{name}.pkl")
        for name in SETS
        if (folder / f"{name}.pkl").exists()
    }


def simulate(record: Record, choose: Choose, max_entries: int = 4) -> tuple[bool, int, int]:
    """Whether the cue is in the replayed packet, the unrelated constraint entries, and
    the other statements shown."""
    shown = record["packet"]
    if record["calls"]:
        constraint = list(shown["step"][:1])
        picked = entries_in_turn([choose(c["profile"], *c["inputs"]) for c in record["calls"]])
        for e in picked:
            events = set(e.standing.event_ids())
            if len(constraint) >= max_entries:
                break
            if not any(events & s for s in constraint):
                constraint.append(events)
        real = set().union(*shown["constraint"]) if shown["constraint"] else set()
        items = [s for s in shown["items"] if not s & real]
    else:
        constraint, items = shown["constraint"], shown["items"]
    cue = record["cue"]
    every = [*items, *constraint, *shown["rest"]]
    hit = any(cue in s for s in every)
    events = set().union(*every) if every else set()
    others = record["others"] or {}
    return (
        hit,
        sum(cue not in s for s in constraint),
        len({v for k, v in others.items() if k in events}),
    )


def evaluate(data: dict[str, list[Record]], choose: Choose, label: str) -> str:
    parts = []
    for name, records in data.items():
        for half in ("check",) if name == "dil" else ("tune", "check"):
            done = [simulate(r, choose) for r in records if r["split"] == half]
            if not done:
                continue
            hit = sum(d[0] for d in done) / len(done)
            if name in ("ctl", "ctlm"):
                extra = f"/{statistics.mean(d[1] for d in done):.2f}"
            elif name in ("pr", "prm", "ct"):
                extra = f"/{statistics.mean(d[2] for d in done):.2f}"
            else:
                extra = ""
            parts.append(f"{name}:{half[0]} {hit:.3f}{extra}")
    return f"{label:34s} " + "  ".join(parts)


# -- levers ---------------------------------------------------------------------------


def uncut(config: ProfileConfig) -> ProfileConfig:
    """The ranking with nothing cut: every live entry, by score."""
    return replace(
        config,
        within=np.inf,
        stand_out=None,
        then_stand_out=None,
        evidence_floor=-np.inf,
        topic_exempt=False,
    )


def every_entry(profile: Profile, inputs: Sequence[Any]) -> list[ProfileEntry]:
    """Every live entry of a captured choice's ``inputs``, scored, with no floor."""
    return profile_choose.choose(profile, *inputs[:4], uncut(inputs[4]), *inputs[5:])


def one_message(profile: Profile) -> np.ndarray:
    """Which pairs of entries were drawn from one message (their crowding leaves them
    out of each other's, as ``recall/profile_consolidate.py`` does)."""
    holders: dict[str, set[int]] = {}
    for at, s in enumerate(profile.entries):
        for event in s.event_ids():
            holders.setdefault(event, set()).add(at)
    n = len(profile.entries)
    shared = np.zeros((n, n), dtype=bool)
    for group in (sorted(g) for g in holders.values() if len(g) > 1):
        shared[np.ix_(group, group)] = True
    return shared


def recrowded(profile: Profile, heads: np.ndarray, k: int = 5) -> Profile:
    heads = heads / (np.linalg.norm(heads, axis=1, keepdims=True) + 1e-9)
    crowding = crowding_of(heads @ heads.T, k, one_message(profile))
    entries = tuple(replace(s, crowding=c) for s, c in zip(profile.entries, crowding, strict=True))
    return replace(profile, entries=entries)


_STANCES = frozenset({"policy", "value"})


def _stance_on_thing(f: Any) -> bool:
    """A stance (policy, value) whose value is a short phrase of its own, not the whole
    statement kept as the constraint, nor one said in the first person."""
    words = f.value.split()
    first = {"i", "i'm", "i've", "my", "we", "we're", "our"}
    return (
        f.category.value in _STANCES
        and len(words) <= 6
        and not first & {w.lower().strip(",.") for w in words}
    )


def _stance_on_noun(f: Any) -> bool:
    """A stance on a thing whose last word is a noun (WordNet: ``text/noun_senses.py``)."""
    words = f.value.split()
    return bool(words) and _stance_on_thing(f) and bool(noun_classes(words[-1].strip(",.!?")))


# the statements whose object is blended in: every one, the stances (policy, value),
# the rules (policy), a stance on a thing (_stance_on_thing), one ending in a noun
SELECTS: dict[str, Callable[[Any], bool]] = {
    "all": lambda f: True,
    "stance": lambda f: f.category.value in _STANCES,
    "policy": lambda f: f.category.value == "policy",
    "thing": _stance_on_thing,
    "noun": _stance_on_noun,
}


# the object_where levers replayed: (SELECTS key, mix, crowd, crowding weight or None)
WHERE = (
    ("all", 0.5, 0.5, 2.0),
    ("all", 0.5, 0.5, None),
    ("all", 0.0, 0.5, 2.0),
    ("all", 0.0, 0.5, None),
    ("all", 0.25, 0.0, None),
    ("stance", 0.5, 0.5, 2.0),
    ("stance", 0.25, 0.25, None),
    ("policy", 0.5, 0.5, 2.0),
    ("thing", 0.5, 0.5, 2.0),
    ("thing", 0.5, 0.5, None),
    ("thing", 1.0, 1.0, 2.0),
    ("noun", 0.5, 0.5, 2.0),
    ("noun", 0.5, 0.5, None),
    ("noun", 0.0, 0.5, 2.0),
    ("noun", 0.0, 0.5, None),
    ("noun", 1.0, 1.0, 2.0),
    ("noun", 0.25, 0.25, None),
)


class Levers:
    """The levers replayed, each a ``choose`` with one thing changed."""

    def __init__(self, calls: dict[int, Record], descriptions: np.ndarray) -> None:
        self.calls = calls
        self.descriptions = descriptions
        self.objects: dict[str, np.ndarray] = {}

    def _call(self, profile: Profile) -> Record:
        return self.calls[id(profile)]

    def named_areas(self, own: float, request: float) -> Choose:
        """Each side's area shares blended with the areas it was named in: a constraint's
        recorded area tags, the request's view areas."""
        names = [a.name.value for a in AREAS]

        def blend(shares: np.ndarray, named: Sequence[Sequence[str]], weight: float) -> np.ndarray:
            out = np.array(shares, dtype=np.float64)
            for row, areas in enumerate(named):
                columns = [names.index(a) for a in dict.fromkeys(areas) if a in names]
                if columns:
                    out[row] *= 1.0 - weight
                    out[row, columns] += weight / len(columns)
            return out

        def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
            call = self._call(profile)
            semantic, area, tagged, at, config, areas, *things = inputs
            if call["vectors"] is None or call["qvec"] is None:
                return profile_choose.choose(profile, *inputs)
            shares = area_shares(call["vectors"], self.descriptions, config.area_temperature)
            named = [areas_of_tags(f.scope_tags) for s in profile.entries for f in s.statements]
            profile = replace(profile, areas=blend(shares, named, own))
            vector = np.asarray(call["qvec"], dtype=np.float32)[None, :]
            asked = area_shares(vector, self.descriptions, config.area_temperature)
            areas = blend(asked, [call["view_areas"]], request)[0]
            return profile_choose.choose(
                profile, semantic, area, tagged, at, config, areas, *things
            )

        return choose

    def request_temperature(self, temperature: float) -> Choose:
        def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
            call = self._call(profile)
            semantic, area, tagged, at, config, areas, *things = inputs
            if call["qvec"] is not None:
                vector = np.asarray(call["qvec"], dtype=np.float32)[None, :]
                areas = area_shares(vector, self.descriptions, temperature)[0]
            return profile_choose.choose(
                profile, semantic, area, tagged, at, config, areas, *things
            )

        return choose

    def recrowding(self, weight: float | None, *, alpha: float = 0.0, k: int = 5) -> Choose:
        """Crowding measured again: after taking ``alpha`` of the user's mean constraint
        vector away (the phrasing all stances share), and as the mean cosine of the ``k``
        nearest entries (5 on main); ``weight`` replaces the crowding weight."""

        def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
            call = self._call(profile)
            semantic, area, tagged, at, config, areas, *things = inputs
            if call["vectors"] is None or len(profile.entries) < 2:
                return profile_choose.choose(profile, *inputs)
            heads = call["vectors"][profile.columns.starts].astype(np.float64)
            if alpha:
                heads = heads - alpha * heads.mean(axis=0)
            profile = recrowded(profile, heads, k)
            if weight is not None:
                config = replace(config, crowding_weight=weight)
            return profile_choose.choose(
                profile, semantic, area, tagged, at, config, areas, *things
            )

        return choose

    def object_closeness(self, mix: float | str, crowd: float, weight: float | None) -> Choose:
        """Closeness to the constraint's object (its fact value, embedded alone) mixed
        into its closeness (``mix`` of it, or "max" of the two) and its crowding."""

        def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
            call = self._call(profile)
            semantic, area, tagged, at, config, areas, *things = inputs
            if call["vectors"] is None or call["qvec"] is None:
                return profile_choose.choose(profile, *inputs)
            facts = [f for s in profile.entries for f in s.statements]
            objects = np.stack([self.objects[f.value] for f in facts]).astype(np.float64)
            texts = call["vectors"].astype(np.float64)
            request = np.asarray(call["qvec"], dtype=np.float64)
            close = np.array(semantic, dtype=np.float64)
            rows = profile.columns.rows
            if mix == "max":
                close[rows] = np.maximum(texts @ request, objects @ request)
            else:
                close[rows] = (1 - float(mix)) * (texts @ request) + float(mix) * (
                    objects @ request
                )
            if crowd:
                starts = profile.columns.starts
                profile = recrowded(profile, (1 - crowd) * texts[starts] + crowd * objects[starts])
            if weight is not None:
                config = replace(config, crowding_weight=weight)
            return profile_choose.choose(profile, close, area, tagged, at, config, areas, *things)

        return choose

    def object_where(
        self,
        select: Callable[[Any], bool],
        mix: float,
        crowd: float,
        weight: float | None,
        own_space: bool | str = False,
    ) -> Choose:
        """As ``object_closeness``, for the statements ``select`` picks only: each such
        statement's vector is ``mix`` of its object's and the rest its text's (unit
        length again), its closeness is that vector's cosine with the request, and the
        entries' crowding is measured on ``crowd`` of it; the other statements keep
        their text's vector. With ``own_space`` a statement kept whole keeps main's
        crowding (measured among the statements' vectors alone) and a blended one is
        measured among every entry blended alike: no entry is measured against vectors
        of another mix; ``"level"``: and the blended ones shifted so that their mean
        crowding is main's."""

        def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
            call = self._call(profile)
            semantic, area, tagged, at, config, areas, *things = inputs
            if call["vectors"] is None or call["qvec"] is None:
                return profile_choose.choose(profile, *inputs)
            facts = [f for s in profile.entries for f in s.statements]
            texts = call["vectors"].astype(np.float64)
            picked = np.array([select(f) for f in facts], dtype=bool)[:, None]

            def blended(share: float) -> np.ndarray:
                objects = np.stack([self.objects[f.value] for f in facts]).astype(np.float64)
                out = np.where(picked, (1 - share) * texts + share * objects, texts)
                return out / (np.linalg.norm(out, axis=1, keepdims=True) + 1e-12)

            close = np.array(semantic, dtype=np.float64)
            close[profile.columns.rows] = blended(mix) @ np.asarray(call["qvec"], np.float64)
            if crowd and own_space:  # a kept statement's crowding is main's
                starts = profile.columns.starts
                mixed = recrowded(profile, blended(crowd)[starts])
                heads = picked[starts, 0]
                shift = 0.0
                if own_space == "level" and heads.any():  # the blended ones' mean kept
                    kept = np.array([s.crowding for s in profile.entries])[heads]
                    moved = np.array([m.crowding for m in mixed.entries])[heads]
                    shift = float(kept.mean() - moved.mean())
                entries = tuple(
                    replace(m, crowding=round(m.crowding + shift, 4)) if h else s
                    for s, m, h in zip(profile.entries, mixed.entries, heads, strict=True)
                )
                profile = replace(profile, entries=entries)
            elif crowd:
                profile = recrowded(profile, blended(crowd)[profile.columns.starts])
            if weight is not None:
                config = replace(config, crowding_weight=weight)
            return profile_choose.choose(profile, close, area, tagged, at, config, areas, *things)

        return choose

    async def embed_objects(self, data: dict[str, list[Record]]) -> None:
        values = sorted(
            {
                f.value
                for records in data.values()
                for r in records
                for c in r["calls"]
                for s in c["profile"].entries
                for f in s.statements
            }
        )
        embedder = OnnxMiniLMEmbedder()
        for i in range(0, len(values), 256):
            chunk = values[i : i + 256]
            self.objects.update(zip(chunk, np.asarray(await embedder.embed(chunk)), strict=True))


def area_stats(data: dict[str, list[Record]]) -> None:
    """How often the cue and the request fall in the same decision areas, by the graded
    affinity the ranking adds (the dot product of their area shares), against the other
    entries of the same scopes: the share of them at 0.5 or more, and the mean."""
    for name, records in data.items():
        for half in ("tune", "check"):
            cue: list[float] = []
            rest: list[float] = []
            for r in records:
                if r["split"] != half or not r["calls"]:
                    continue
                call = r["calls"][0]
                profile, areas = call["profile"], call["inputs"][-1]
                if profile.areas is None or areas is None:
                    continue
                affinity = (profile.areas @ areas)[profile.columns.starts]
                for s, a in zip(profile.entries, affinity, strict=True):
                    (cue if r["cue"] in s.event_ids() else rest).append(float(a))
            if cue:
                print(
                    f"{name}:{half[0]} cue {np.mean(np.array(cue) >= 0.5):.2f} "
                    f"(mean {np.mean(cue):.2f}, n {len(cue)}), others "
                    f"{np.mean(np.array(rest) >= 0.5):.2f} (mean {np.mean(rest):.2f})"
                )


def replay(folder: Path, wanted: Sequence[str], areas: bool = False) -> None:
    data = load(folder)
    if areas:
        area_stats(data)
        return
    calls = {id(c["profile"]): c for rs in data.values() for r in rs for c in r["calls"]}
    descriptions = np.asarray(
        asyncio.run(OnnxMiniLMEmbedder().embed(list(AREA_PHRASES), "document")), dtype=np.float32
    )
    levers = Levers(calls, descriptions)
    if any(w.startswith(("object", "where", "own", "level")) for w in wanted) or not wanted:
        asyncio.run(levers.embed_objects(data))
    table: dict[str, Choose] = {
        "base": profile_choose.choose,
        "named-areas-0.25": levers.named_areas(0.25, 0.25),
        "named-areas-0.5": levers.named_areas(0.5, 0.5),
        "named-areas-0.75": levers.named_areas(0.75, 0.75),
        "named-areas-own-0.5": levers.named_areas(0.5, 0.0),
        "named-areas-request-0.5": levers.named_areas(0.0, 0.5),
        "request-temperature-0.04": levers.request_temperature(0.04),
        "request-temperature-0.06": levers.request_temperature(0.06),
        "centred-crowding-0.5": levers.recrowding(None, alpha=0.5),
        "centred-crowding-1.0": levers.recrowding(None, alpha=1.0),
        "centred-crowding-0.5-w1.5": levers.recrowding(1.5, alpha=0.5),
        "crowding-3-nearest": levers.recrowding(None, k=3),
        "crowding-8-nearest": levers.recrowding(None, k=8),
        "crowding-3-nearest-w2": levers.recrowding(2.0, k=3),
        "object-0.5": levers.object_closeness(0.5, 0.0, None),
        "object-0.5-crowd-0.5": levers.object_closeness(0.5, 0.5, None),
        "object-0.5-crowd-0.5-w2": levers.object_closeness(0.5, 0.5, 2.0),
        "object-max-crowd-0.5-w2": levers.object_closeness("max", 0.5, 2.0),
    }
    for kind, mix, crowd, weight in WHERE:
        name = f"where-{kind}-{mix}-crowd-{crowd}-w{weight or 'main'}"
        table[name] = levers.object_where(SELECTS[kind], mix, crowd, weight)
        table[f"own-{name}"] = levers.object_where(SELECTS[kind], mix, crowd, weight, True)
        table[f"level-{name}"] = levers.object_where(SELECTS[kind], mix, crowd, weight, "level")
    for name in wanted or table:
        print(evaluate(data, table[name], name), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    cap = sub.add_parser("capture")
    cap.add_argument("out", type=Path)
    cap.add_argument("script")
    cap.add_argument("args", nargs=argparse.REMAINDER)
    rep = sub.add_parser("replay")
    rep.add_argument("folder", type=Path)
    rep.add_argument("--lever", nargs="*", default=[])
    rep.add_argument("--areas", action="store_true", help="the cue's area affinity only")
    args = parser.parse_args()
    if args.command == "capture":
        capture(args.out, args.script, args.args)
    else:
        replay(args.folder, args.lever, args.areas)


if __name__ == "__main__":
    main()
