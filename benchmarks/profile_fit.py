"""Fit the standing profile's ranking weights on the tune halves (issue 29, nineteenth
stop), from the captures of ``profile_replay.py capture`` (every ``*.pkl`` of the folders
given, named by its file; a read's first capture is the default preset's).

``fit`` builds, for every tune read whose cue was recorded and ranked at all (live, with
evidence), one row per candidate entry of the request's first profile call: the signals
``recall/profile_choose.py`` adds up (the cosine, the nearest-neighbour flag, the graded
area and thing affinities, the crowding, the scope tag, importance, recency, binding)
and, as a candidate signal of its own, how far the cosine lies above the statement's
nearest other statement (``Profile.nearest``: the graded form of the flag). It fits a
conditional logit (softmax over a request's candidates, the cue the label; Newton's
method with a small ridge, numpy only) and prints the weights scaled so the cosine's is 1,
the scale ``ProfileConfig`` is in. Every read of a set weighs alike; each set weighs
alike (a set's reads share its weight).

``replay`` chooses again with the weights given (``name=value`` over
``ProfileConfig``) on every set and half, as ``profile_replay.simulate`` rebuilds the
packet: cue pairs and other preferences shown (unrelated constraints for the long set,
``ctl*``; distractors for ``ct``). Two levers that need more than a weight are replayed
by adding to each statement's cosine with the request (the captured per-row cosines
given to ``profile_choose.choose``; nothing under ``src/`` changed):

- ``--nearest-margin W``: W times how far the request's cosine with the statement lies
  above the statement's nearest other statement (the fitted ``above_nearest``);
- ``--cross-encoder W``: W times the z-score of the int8 ms-marco cross-encoder's score of
  (request, entry text) among the ``--top`` entries the shipped ranking puts first (the
  rest get the lowest), on the request's first profile call; the scores are cached in
  ``--ce-cache``. The requests are read from the sets' data files by pair id.

Usage (repository root; ``PYTHONPATH=src:benchmarks``)::

    python benchmarks/profile_fit.py fit DIR [--ridge 0.0001] [--extra] [--fix NAME ...]
    python benchmarks/profile_fit.py replay DIR [crowding_weight=2.0 ...]
        [--nearest-margin 0.25] [--cross-encoder 0.05 --top 12 --ce-cache FILE]
"""

from __future__ import annotations

import argparse
import json
import pickle
import statistics
from collections.abc import Sequence
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import numpy as np
import profile_replay as pr

from cognimem.models.fact_decay import AGING_BELOW
from cognimem.recall import profile_choose
from cognimem.recall.profile import Profile, ProfileConfig

Record = dict[str, Any]
# the signals in the order of ProfileConfig's weights (the cosine's is fixed at 1)
SIGNALS = (
    "cosine",
    "reciprocal",
    "area_affinity",
    "thing_affinity",
    "crowding_weight",
    "tag_weight",
    "importance_weight",
    "recency_weight",
    "kind_weight",
)
EXTRA = ("above_nearest",)


def features(call: Record, extra: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per entry of the call's profile: its signals (the statement that ranks it under
    the call's config) and whether it is a candidate (live, with evidence)."""
    profile: Profile = call["profile"]
    semantic, _, tagged, at, config, areas, things = call["inputs"]
    c = profile.columns
    cos = np.asarray(semantic, dtype=np.float64)[c.rows]
    near = profile.nearest if profile.nearest is not None else np.full(len(cos), np.inf)
    flag = (cos >= near).astype(np.float64)
    adot = profile.areas @ areas if profile.areas is not None and areas is not None else 0 * cos
    tdot = profile.things @ things if profile.things is not None and things is not None else 0 * cos
    above = np.where(np.isfinite(near), cos - near, 0.0)
    combined = (
        cos + config.reciprocal * flag + config.area_affinity * adot + config.thing_affinity * tdot
    )
    # per entry, the statement with the highest combined closeness
    best = np.array(
        [
            s + int(np.argmax(combined[s:e]))
            for s, e in zip(c.starts, [*c.starts[1:], len(cos)], strict=True)
        ],
        dtype=np.int64,
    )
    t = at.timestamp()
    with np.errstate(over="ignore"):
        decayed = c.confidence * 0.5 ** (np.maximum(t - c.validated, 0.0) / c.half_life_s)
    confidence = np.maximum.reduceat(decayed, c.starts)
    shares_tag = np.logical_or.reduceat(np.asarray(tagged, dtype=bool)[c.rows], c.starts)
    recency = 0.5 ** (np.maximum(t - c.newest, 0.0) / 86_400 / config.recency_days)
    columns = [
        cos[best],
        flag[best],
        np.asarray(adot)[best],
        np.asarray(tdot)[best],
        -c.crowding,
        shares_tag.astype(np.float64),
        c.importance,
        recency,
        c.binding.astype(np.float64),
    ]
    if extra:
        columns.append(above[best])
    sem = combined[best]
    live = c.binding | (confidence >= AGING_BELOW)
    evident = shares_tag | (sem >= config.evidence_floor)
    return np.column_stack(columns), live & evident


def groups(
    data: dict[str, list[Record]], half: str, extra: bool
) -> list[tuple[np.ndarray, int, float]]:
    """(candidate rows, the cue's row among them, weight) per read of the half."""
    out = []
    for records in data.values():
        mine = []
        for record in records:
            if record["split"] != half or not record["calls"]:
                continue
            call = record["calls"][0]
            at = pr.cue_entry(call["profile"], record["cue"])
            if at is None:
                continue
            x, candidate = features(call, extra)
            if not candidate[at] or candidate.sum() < 2:
                continue
            rows = np.flatnonzero(candidate)
            mine.append((x[rows], int(np.flatnonzero(rows == at)[0])))
        out += [(x, cue, 1.0 / len(mine)) for x, cue in mine]
    return out


def fit(rows: list[tuple[np.ndarray, int, float]], ridge: float) -> np.ndarray:
    """The conditional logit's coefficients (Newton's method, ``ridge`` times the
    squared norm as the penalty)."""
    k = rows[0][0].shape[1]
    theta = np.zeros(k)
    theta[0] = 10.0
    for _ in range(50):
        grad = -ridge * theta
        hess = -ridge * np.eye(k)
        for x, cue, w in rows:
            z = x @ theta
            p = np.exp(z - z.max())
            p /= p.sum()
            mean = p @ x
            grad += w * (x[cue] - mean)
            centred = x - mean
            hess -= w * (centred.T * p) @ centred
        step = np.linalg.solve(hess, grad)
        theta = theta - step
        if np.abs(step).max() < 1e-8:
            break
    return theta


def log_likelihood(rows: list[tuple[np.ndarray, int, float]], theta: np.ndarray) -> float:
    total = 0.0
    for x, cue, w in rows:
        z = x @ theta
        total += w * (z[cue] - z.max() - np.log(np.exp(z - z.max()).sum()))
    return total


def first_rate(rows: list[tuple[np.ndarray, int, float]], theta: np.ndarray) -> float:
    return sum(w * float(np.argmax(x @ theta) == cue) for x, cue, w in rows) / sum(
        w for *_, w in rows
    )


def _fixed(
    rows: list[tuple[np.ndarray, int, float]], names: Sequence[str], fixed: Sequence[str]
) -> list[tuple[np.ndarray, int, float]]:
    """The rows with the ``fixed`` signals folded into the cosine's column at their
    shipped weights (so the fit leaves them as shipped) and their columns dropped."""
    config = ProfileConfig()
    at = [names.index(n) for n in fixed]
    weights = np.array([getattr(config, n) for n in fixed])
    kept = [i for i in range(len(names)) if i not in at]
    out = []
    for x, cue, w in rows:
        y = x[:, kept].copy()
        y[:, 0] += x[:, at] @ weights
        out.append((y, cue, w))
    return out


def run_fit(data: dict[str, list[Record]], ridge: float, extra: bool, fixed: Sequence[str]) -> None:
    every = SIGNALS + (EXTRA if extra else ())
    names = tuple(n for n in every if n not in fixed)
    tune = _fixed(groups(data, "tune", extra), every, fixed)
    check = _fixed(groups(data, "check", extra), every, fixed)
    theta = fit(tune, ridge)
    scaled = theta / theta[0]
    print(
        "weights (cosine 1):", ", ".join(f"{n}={v:.3f}" for n, v in zip(names, scaled, strict=True))
    )
    shipped = _shipped_theta(extra, fixed) * theta[0]
    for label, t in (("shipped", shipped), ("fitted", theta)):
        print(
            f"{label}: cue first tune {first_rate(tune, t):.3f} / check {first_rate(check, t):.3f}"
            f" (log-likelihood {log_likelihood(tune, t):.2f} / {log_likelihood(check, t):.2f})"
        )


def _shipped_theta(extra: bool, fixed: Sequence[str]) -> np.ndarray:
    c = ProfileConfig()
    values = [1.0, *(getattr(c, n) for n in SIGNALS[1:] if n not in fixed)]
    return np.array(values + ([0.0] if extra else []))


# the data file of each capture's set, for the requests' text (cross-encoder lever)
DATA = {
    "p1": "preference_requests",
    "p2": "preference_requests_more",
    "p3": "preference_requests_third",
    "p4": "preference_requests_fourth",
    "p5": "preference_requests_fifth",
    "ct": "cue_trigger",
    "ctl": "cue_trigger_long",
    "ctlm": "cue_trigger_long",
    "dil": "dilution",
}


def _boosted(profile: Profile, semantic: np.ndarray, boost: np.ndarray) -> np.ndarray:
    """The per-row cosines with ``boost`` (per statement, in the columns' order) added to
    the statements' rows:
    the closeness ``profile_choose`` ranks by moves by it (the nearest-neighbour flag
    moves for the cross-encoder's boost, not for the margin's, which keeps the cosine's
    side of the nearest statement)."""
    c = profile.columns
    out = np.array(semantic, dtype=np.float64)
    out[c.rows] += boost
    return out


def _requests(name: str) -> dict[str, str]:
    out = {}
    with open(Path("benchmarks/data") / f"{DATA[name]}.jsonl") as lines:
        for line in lines:
            row = json.loads(line)
            if "id" in row:  # dilution's chat lines have none
                out[row["id"]] = row.get("request") or row.get("trigger") or ""
    return out


class CrossEncoded:
    """The cross-encoder's scores of each read's first profile call's top entries."""

    def __init__(self, path: Path, top: int) -> None:
        self.path, self.top = path, top
        self.scores: dict[tuple[str, str, str], tuple[list[int], np.ndarray]] = (
            pickle.loads(path.read_bytes()) if path.exists() else {}
        )
        self.model: Any = None

    def of(
        self, name: str, record: Record, requests: dict[str, str]
    ) -> tuple[list[int], np.ndarray]:
        key = (name, record["id"], record["split"])
        if key not in self.scores:
            if self.model is None:
                from cognimem.providers.cross_encoder import build_cross_encoder

                self.model = build_cross_encoder("ms-marco-l12")
            call = record["calls"][0]
            profile, inputs = call["profile"], call["inputs"]
            ranked = pr.every_entry(profile, inputs)
            at = {id(s): i for i, s in enumerate(profile.entries)}
            top = [at[id(e.standing)] for e in ranked[: self.top]]
            texts = [profile.entries[i].fact.text for i in top]
            scores = self.model.score_sync(requests[record["id"]], texts) if top else []
            self.scores[key] = (top, np.asarray(scores, dtype=np.float64))
        return self.scores[key]

    def save(self) -> None:
        self.path.write_bytes(pickle.dumps(self.scores))


def _margin_boost(profile: Profile, semantic: np.ndarray, weight: float) -> np.ndarray | None:
    """Per statement: ``weight`` times its cosine less its nearest other statement's (0
    with fewer than crowding_k others)."""
    if profile.nearest is None:
        return None
    c = profile.columns
    cos = np.asarray(semantic, dtype=np.float64)[c.rows]
    finite = np.isfinite(profile.nearest)
    margin = np.where(finite, cos - np.where(finite, profile.nearest, 0.0), 0.0)
    out: np.ndarray = weight * margin
    return out


def _in_turn(chosen: list[Any]) -> Any:
    picked = iter(chosen)
    return lambda *_: next(picked)


def replay(
    data: dict[str, list[Record]],
    changes: dict[str, float],
    margin: float = 0.0,
    cross: float = 0.0,
    encoded: CrossEncoded | None = None,
) -> str:
    parts = []
    for name, records in data.items():
        requests = _requests(name) if cross else {}
        for half in ("tune", "check"):
            done = []
            for record in (r for r in records if r["split"] == half):
                chosen = []
                for j, call in enumerate(record["calls"]):
                    profile, inputs = call["profile"], call["inputs"]
                    boost = _margin_boost(profile, inputs[0], margin) if margin else None
                    if cross and j == 0 and encoded is not None:
                        top, scores = encoded.of(name, record, requests)
                        if len(top) > 1:
                            z = (scores - scores.mean()) / (scores.std() + 1e-9)
                            per_entry = np.full(len(profile.entries), cross * z.min())
                            per_entry[top] = cross * z
                            extra = per_entry[profile.columns.entry]
                            boost = extra if boost is None else boost + extra
                    semantic = inputs[0] if boost is None else _boosted(profile, inputs[0], boost)
                    config = replace(inputs[4], **changes)
                    chosen.append(
                        profile_choose.choose(profile, semantic, *inputs[1:4], config, *inputs[5:])
                    )
                done.append(pr.simulate(record, _in_turn(chosen)))
            if not done:
                continue
            hits = sum(d[0] for d in done)
            shown = statistics.fmean(d[1] if name.startswith("ctl") else d[2] for d in done)
            parts.append(f"{name}:{half[0]} {hits}/{len(done)} ({shown:.2f})")
    if encoded is not None:
        encoded.save()
    return "  ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("fit", "replay"))
    parser.add_argument("folder", type=Path)
    parser.add_argument("changes", nargs="*", default=[])
    parser.add_argument("--ridge", type=float, default=0.0001)
    parser.add_argument("--extra", action="store_true")
    parser.add_argument("--fix", action="append", default=[], choices=SIGNALS[1:])
    parser.add_argument("--nearest-margin", type=float, default=0.0)
    parser.add_argument("--cross-encoder", type=float, default=0.0)
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument("--ce-cache", type=Path, default=Path("/tmp/profile_fit_ce.pkl"))
    args = parser.parse_args()
    data = pr.first_reads_of([args.folder])
    if args.what == "fit":
        run_fit(data, args.ridge, args.extra, args.fix)
        return
    known = {f.name for f in fields(ProfileConfig)}
    changes = {}
    for change in args.changes:
        key, value = change.split("=")
        if key not in known:
            raise SystemExit(f"no ProfileConfig field {key!r}")
        changes[key] = float(value)
    encoded = CrossEncoded(args.ce_cache, args.top) if args.cross_encoder else None
    print(replay(data, changes, args.nearest_margin, args.cross_encoder, encoded))


if __name__ == "__main__":
    main()
