"""The fourteenth stop's levers on the standing profile's places (issue 29 item 2),
replayed from the captures of ``profile_replay.py capture`` (``docs/constraints.md``,
"The request's areas at the places, and a margin on the spread"). Every lever starts
from the shipped choice (``base``) and changes one thing:

- ``gate-S-G``: after the best, an entry keeps its place only when it and the request
  fall in the same decision areas at least ``G`` (the dot product of their area shares,
  ``S`` = ``area``) or on the same listed things (``S`` = ``thing``);
- ``tie-S-G``: the same test as a tie-breaker, not a gate: after the best, the entries
  that pass it come first (each group by score);
- ``admit-S-G``: an entry that passes the test and is within ``within`` of the best is
  carried without having to stand out (the floors after the best judge the rest);
- ``areacos-C[-P]``: the graded area's weight times ``min(1, max(0, cosine) / C) ** P``:
  an area shared by a statement that says nothing near the request adds little;
- ``margin-M``: after the best, only the entries within ``M`` of the best's score;
- ``smargin-K``: ... within ``K`` standard deviations of the user's live scores;
- ``gap-M``: only the best when it leads the second by ``M`` or more;
- ``andclose-K``: after the best, an entry also needs its closeness ``K`` standard
  deviations above the live entries' mean closeness;
- ``crowdn-N-L``: the crowding weight ``L`` of itself for a handful of entries, all of
  it from ``N`` entries on;
- ``kindhub-M``: the goals', states' and causes' crowding blended ``M`` with their
  hubness against the listed things, each kind shifted to its own mean (as the
  stances' is on main).

Usage (repository root): ``PYTHONPATH=src:benchmarks python
benchmarks/profile_replay_places.py DIR [--tune] [LEVER ...]`` (``--tune``: the tune
halves only, as the levers are chosen; the check halves are read once, to report);
``DIR --ranks``: the cue's rank by plain cosine for the request in other forms
(``QUERY_FORMS``) and for each statement with its nearest listed things (tune halves).
"""

from __future__ import annotations

import json
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
from cognimem.text.areas import AREA_PHRASES

ROOT = Path(__file__).resolve().parents[1]
Choose = Callable[..., list[ProfileEntry]]
Test = Callable[[Profile, tuple[Any, ...]], np.ndarray]


def affinity(kind: str) -> Test:
    """Per entry, the most any of its statements shares with the request: in the decision
    areas (``area``) or on the listed things (``thing``)."""

    def test(profile: Profile, inputs: tuple[Any, ...]) -> np.ndarray:
        shares = inputs[5] if kind == "area" else (inputs[6] if len(inputs) > 6 else None)
        own = profile.areas if kind == "area" else profile.things
        n = len(profile.entries)
        if shares is None or own is None:
            return np.zeros(n)
        per_statement = own @ shares
        out: np.ndarray = np.maximum.reduceat(per_statement, profile.columns.starts)
        return out

    return test


def _index(profile: Profile) -> dict[int, int]:
    return {id(s): i for i, s in enumerate(profile.entries)}


def gate(test: Test, floor: float, *, tie: bool = False) -> Choose:
    def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
        out = profile_choose.choose(profile, *inputs)
        if len(out) < 2:
            return out
        at = _index(profile)
        passes = test(profile, inputs) >= floor
        first, rest = out[:1], out[1:]
        good = [e for e in rest if passes[at[id(e.standing)]]]
        if tie:
            return first + good + [e for e in rest if not passes[at[id(e.standing)]]]
        return first + good

    return choose


def admit(test: Test, floor: float) -> Choose:
    def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
        out = profile_choose.choose(profile, *inputs)
        config = inputs[4]
        loose = replace(config, stand_out=None, then_stand_out=None, then_close=None)
        wider = profile_choose.choose(profile, *inputs[:4], loose, *inputs[5:])
        at = _index(profile)
        passes = test(profile, inputs) >= floor
        have = {id(e.standing) for e in out}
        extra = [e for e in wider if id(e.standing) not in have and passes[at[id(e.standing)]]]
        return sorted(out + extra, key=lambda e: -e.score)

    return choose


def margin(m: float) -> Choose:
    def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
        out = profile_choose.choose(profile, *inputs)
        if not out:
            return out
        return [e for e in out if e.score >= out[0].score - m]

    return choose


def spread_margin(k: float) -> Choose:
    """After the best, only the entries within ``k`` standard deviations of the user's
    live scores of the best (a margin on the scope's own scale)."""

    def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
        out = profile_choose.choose(profile, *inputs)
        if len(out) < 2:
            return out
        every = pr.every_entry(profile, inputs)
        spread = float(np.std([e.score for e in every]))
        return [e for e in out if e.score >= out[0].score - k * spread]

    return choose


def and_close(k: float) -> Choose:
    """After the best, an entry also needs its closeness ``k`` standard deviations above
    the mean closeness of the user's live entries (as well as what it needs on main)."""

    def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
        out = profile_choose.choose(profile, *inputs)
        if len(out) < 2:
            return out
        close = np.array([e.signals["semantic"] for e in pr.every_entry(profile, inputs)])
        floor = float(close.mean() + k * close.std())
        return out[:1] + [e for e in out[1:] if e.signals["semantic"] >= floor]

    return choose


def gap(m: float) -> Choose:
    def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
        out = profile_choose.choose(profile, *inputs)
        if len(out) >= 2 and out[0].score - out[1].score >= m:
            return out[:1]
        return out

    return choose


def area_by_closeness(scale: float, power: float = 1.0) -> Choose:
    """The graded area's weight times how close the statement is to the request on its
    own: ``min(1, max(0, cosine) / scale) ** power`` (an area shared by a statement that
    says nothing near the request adds little)."""

    def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
        semantic, area, tagged, at, config, areas, *things = inputs
        if areas is None or profile.areas is None or not config.area_affinity:
            return profile_choose.choose(profile, *inputs)
        rows = profile.columns.rows
        close = np.array(semantic, dtype=np.float64)
        cos = close[rows]
        weight = np.minimum(1.0, np.maximum(cos, 0.0) / scale) ** power
        close[rows] = cos + config.area_affinity * (profile.areas @ areas) * weight
        plain = replace(config, area_affinity=0.0)
        return profile_choose.choose(profile, close, area, tagged, at, plain, areas, *things)

    return choose


def crowding_by_size(size: float, least: float) -> Choose:
    """The crowding weight grows with the user's live entries: ``least`` of it for a
    handful, all of it from ``size`` entries on (among ten preferences the crowding is
    the stance phrasing they share; among a conversation's ~80 constraints it holds the
    chatty ones down)."""

    def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
        config = inputs[4]
        n = len(profile.entries)
        share = least + (1.0 - least) * min(1.0, n / size)
        config = replace(config, crowding_weight=config.crowding_weight * share)
        return profile_choose.choose(profile, *inputs[:4], config, *inputs[5:])

    return choose


_REFERENCE: list[np.ndarray] = []


def _reference() -> np.ndarray:
    """The things the decision areas list, embedded once (``text/areas.py``)."""
    if not _REFERENCE:
        vectors = OnnxMiniLMEmbedder().embed_sync(list(AREA_PHRASES), "document")
        _REFERENCE.append(np.asarray(vectors, dtype=np.float64))
    return _REFERENCE[0]


def kind_hubness(mix: float, calls: dict[int, Any]) -> Choose:
    """As the stances' hubness (``stance_hubness``), for the goals, states and causes too:
    each kind's crowding blended ``mix`` with its hubness against the listed things,
    shifted so that kind's mean crowding is what it was."""

    def choose(profile: Profile, *inputs: Any) -> list[ProfileEntry]:
        call = calls.get(id(profile))
        if call is None or call["vectors"] is None or len(profile.entries) < 2:
            return profile_choose.choose(profile, *inputs)
        heads = call["vectors"][profile.columns.starts].astype(np.float64)
        hub = (heads @ _reference().T).mean(axis=1)
        crowding = np.array([s.crowding for s in profile.entries])
        kinds = np.array([s.fact.category.value for s in profile.entries])
        for kind in set(kinds) - {"policy", "value"}:
            at = kinds == kind
            if at.sum() < 2:
                continue
            own = crowding[at]
            crowding[at] = (1.0 - mix) * own + mix * (hub[at] - hub[at].mean() + own.mean())
        entries = tuple(
            replace(s, crowding=float(c)) for s, c in zip(profile.entries, crowding, strict=True)
        )
        return profile_choose.choose(replace(profile, entries=entries), *inputs)

    return choose


_CALLS: dict[int, Any] = {}


def lever(name: str) -> Choose:
    kind, *rest = name.split("-")
    if kind == "base":
        return profile_choose.choose
    if kind in ("gate", "tie"):
        return gate(affinity(rest[0]), float(rest[1]), tie=kind == "tie")
    if kind == "admit":
        return admit(affinity(rest[0]), float(rest[1]))
    if kind == "areacos":
        return area_by_closeness(float(rest[0]), float(rest[1]) if len(rest) > 1 else 1.0)
    if kind == "crowdn":
        return crowding_by_size(float(rest[0]), float(rest[1]))
    if kind == "kindhub":
        return kind_hubness(float(rest[0]), _CALLS)
    if kind == "margin":
        return margin(float(rest[0]))
    if kind == "smargin":
        return spread_margin(float(rest[0]))
    if kind == "andclose":
        return and_close(float(rest[0]))
    if kind == "gap":
        return gap(float(rest[0]))
    raise ValueError(f"unknown lever {name!r}")


# --ranks: the cue's rank by plain cosine among its scope's entries (tune halves of the
# two preference sets), for the request embedded in other forms beside it, and for each
# statement embedded with the listed things nearest it (a second view of a constraint)
QUERY_FORMS = {
    "raw": "{r}",
    "mind": "What should I keep in mind for this: {r}",
    "prefs": "My preferences and constraints that matter for: {r}",
    "avoid": "Things I avoid or prefer when: {r}",
}
RANK_SETS = {
    "pr": ROOT / "benchmarks" / "data" / "preference_requests.jsonl",
    "prm": ROOT / "benchmarks" / "data" / "preference_requests_more.jsonl",
}


def _rank(cosines: np.ndarray, starts: np.ndarray, cue: int) -> int:
    per_entry = np.maximum.reduceat(cosines, starts)
    return int((per_entry > per_entry[cue]).sum()) + 1


def _print_ranks(name: str, label: str, ranks: list[int]) -> None:
    r = np.array(ranks)
    print(
        f"{name} {label:12s} n {len(r)}  first {np.mean(r == 1):.3f}  "
        f"top 3 {np.mean(r <= 3):.3f}  mean rank {r.mean():.2f}"
    )


def ranks(folder: Path) -> None:
    embedder = OnnxMiniLMEmbedder()
    phrases = list(AREA_PHRASES)
    listed = np.asarray(embedder.embed_sync(phrases, "document"), dtype=np.float64)
    data = pr.load(folder)
    for name, path in RANK_SETS.items():
        asked = {d["id"]: d["request"] for d in map(json.loads, path.read_text().splitlines()) if d}
        records = [
            r
            for r in data.get(name, [])
            if r["split"] == "tune" and r["calls"] and r["calls"][0]["vectors"] is not None
        ]
        records = [
            r for r in records if any(r["cue"] in s.event_ids() for s in _profile(r).entries)
        ]
        texts = sorted({f.text for r in records for s in _profile(r).entries for f in s.statements})
        plain = dict(zip(texts, np.asarray(embedder.embed_sync(texts, "document")), strict=True))
        views = {}
        for k in (1, 2):
            forms = [
                t + " (" + ", ".join(phrases[i] for i in np.argsort(-(listed @ plain[t]))[:k]) + ")"
                for t in texts
            ]
            vectors = np.asarray(embedder.embed_sync(forms, "document"))
            views[k] = dict(zip(texts, vectors, strict=True))
        requests = [asked[r["id"]] for r in records]
        forms = {
            k: np.asarray(embedder.embed_sync([f.format(r=q) for q in requests], "query"))
            for k, f in QUERY_FORMS.items()
        }
        out: dict[str, list[int]] = {}
        for i, r in enumerate(records):
            profile = _profile(r)
            starts = profile.columns.starts
            cue = next(j for j, s in enumerate(profile.entries) if r["cue"] in s.event_ids())
            facts = [f.text for s in profile.entries for f in s.statements]
            for k, vectors in forms.items():
                q = vectors[i] if k == "raw" else vectors[i] + forms["raw"][i]
                q = q / np.linalg.norm(q)
                label = k if k == "raw" else f"raw+{k}"
                out.setdefault(label, []).append(
                    _rank(np.array([plain[t] @ q for t in facts]), starts, cue)
                )
                if k != "raw":
                    alone = forms[k][i] / np.linalg.norm(forms[k][i])
                    cos = np.array([plain[t] @ alone for t in facts])
                    out.setdefault(k, []).append(_rank(cos, starts, cue))
            q = forms["raw"][i] / np.linalg.norm(forms["raw"][i])
            for k in (1, 2):
                cos = np.array([views[k][t] @ q for t in facts])
                out.setdefault(f"view-{k}", []).append(_rank(cos, starts, cue))
                mixed = (cos + np.array([plain[t] @ q for t in facts])) / 2
                out.setdefault(f"mean-view-{k}", []).append(_rank(mixed, starts, cue))
        for label, got in out.items():
            _print_ranks(name, label, got)


def _profile(record: Any) -> Profile:
    profile: Profile = record["calls"][0]["profile"]
    return profile


def main() -> None:
    args = sys.argv[1:]
    if "--ranks" in args:
        ranks(Path(next(a for a in args if a != "--ranks")))
        return
    tune_only = "--tune" in args  # while choosing: the check halves are read once, to report
    folder, *wanted = [a for a in args if a != "--tune"]
    data = pr.load(Path(folder))
    _CALLS.update({id(c["profile"]): c for rs in data.values() for r in rs for c in r["calls"]})
    for name in wanted or ["base"]:
        line = pr.evaluate(data, lever(name), name)
        if tune_only:
            line = "  ".join(p for p in line.split("  ") if ":c " not in p)
        print(line, flush=True)


if __name__ == "__main__":
    main()
