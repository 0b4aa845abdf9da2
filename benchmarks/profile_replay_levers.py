"""The eighth stop's levers on the standing profile's choice (issue 29 item 2), replayed
from the captures of ``profile_replay.py capture`` (``docs/constraints.md``, "Where the
request's area, the closeness's scale and the stance words' share were tried"):

- ``margin-M`` / ``margin-uniform-M``: the request's decision areas only when its
  closest area leads the second by ``M`` (else no area affinity, or an even split);
- ``top-K`` / ``top-K-both``: an area as close as the mean of the ``K`` nearest things
  it lists, not the nearest one (the request's side, or both sides);
- ``exemplars-T`` / ``exemplars-T-affA``: the request's areas from a few request-like
  phrasings per area (:data:`EXEMPLARS`, written for this lever, not from any set) at
  temperature ``T``, with the area affinity ``A`` (0.15 on main); ``affinity-A``: the
  listed things with affinity ``A``;
- ``zclose-S``: each read's closeness z-scored among the user's entries, scaled to a
  spread of ``S`` (the crowding and the other weights keep theirs);
- ``zentry-S-wW``: an entry's closeness less its mean cosine with the user's other
  entries, over their spread, times ``S``, crowding weight ``W``;
- ``object-frac`` / ``object-invfrac`` / ``object-max``: the larger of the statement's
  closeness and the object's (its value embedded alone), the object weighted by the
  share of the statement's words it holds (or the rest);
- ``object-KIND-MIX``: as ``profile_replay.py``'s ``where-…`` levers, closeness only
  (the crowding as on main);
- ``stance-rR[-centred][-wW][-sS]``: the crowding measured with the first ``R``
  principal directions of a few bare stance frames (:data:`STANCE_FRAMES`: "I avoid
  it.", "I always do that.") taken out of every statement (``S`` of them), the mean
  crowding kept; one space for every entry, unlike the object's blends;
  ``stance-rR-vagueV``: and ``V`` times the share of the statement that is stance frame
  taken off its score (a statement that is little more than "I won't forget that.").

Usage (repository root): ``PYTHONPATH=src:benchmarks python
benchmarks/profile_replay_levers.py DIR [LEVER-PREFIX ...]``.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Callable
from dataclasses import replace
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import profile_replay as pr

from cognimem.providers.onnx import OnnxMiniLMEmbedder
from cognimem.recall import profile_choose
from cognimem.recall.profile import Profile, ProfileEntry
from cognimem.text.areas import AREA_PHRASES, AREAS

Choose = Callable[..., list[ProfileEntry]]

# request-like phrasings per decision area (AREAS order), written for this lever
EXEMPLARS: dict[str, tuple[str, ...]] = {
    "finance": (
        "How much should I put aside each month?",
        "Can I afford a bigger mortgage?",
        "Help me pay off my loan faster.",
        "Where should I invest my savings?",
        "How do I cut my monthly bills?",
        "Should I lend money to a friend?",
    ),
    "food": (
        "What should we eat tonight?",
        "Give me a recipe for lunch.",
        "Which restaurant should we go to?",
        "What snacks should I buy for the party?",
        "Plan a menu for the week.",
        "What drink goes with this meal?",
    ),
    "health": (
        "How can I sleep better?",
        "What should I do about my sore back?",
        "Which painkiller should I take?",
        "Help me lose some weight.",
        "Should I see a doctor about this cough?",
        "How can I feel less stressed?",
    ),
    "schedule": (
        "When should I set the meeting?",
        "What time works for the appointment?",
        "Fit this into my calendar next week.",
        "Which day should I book it for?",
        "How should I plan my morning?",
        "Can we move it to the weekend?",
    ),
    "travel": (
        "Book me a flight to the coast.",
        "Which hotel should I stay at?",
        "How should I get to the airport?",
        "Plan a road trip for the summer.",
        "What's the best train to take?",
        "Where should we go on vacation?",
    ),
    "family": (
        "What should I get my mother for her birthday?",
        "How can I spend more time with my kids?",
        "Plan a visit to my parents.",
        "What should we do for our anniversary?",
        "How do I make friends in a new town?",
        "Who should look after the dog next week?",
    ),
    "work": (
        "How should I prepare for the interview?",
        "Should I ask my boss for a raise?",
        "Help me handle a difficult client.",
        "Which job offer should I take?",
        "How do I get through my inbox at the office?",
        "Plan my tasks for the project.",
    ),
    "home": (
        "How should I arrange the living room?",
        "What should I plant in the garden?",
        "Which sofa should I buy for the flat?",
        "How do I get the house clean quickly?",
        "Should we move to a bigger place?",
        "How do I deal with a noisy neighbour?",
    ),
    "leisure": (
        "What should I do this weekend?",
        "Recommend a game to play tonight.",
        "Which concert should we go to?",
        "Suggest a hobby I could pick up.",
        "What film should we see?",
        "Plan a fun outing for Saturday.",
    ),
    "education": (
        "Which course should I sign up for?",
        "How should I study for the exam?",
        "Help me learn a new language.",
        "What book should I read next?",
        "Which school should my son go to?",
        "How can I practise this skill?",
    ),
    "shopping": (
        "Which brand should I buy?",
        "Where can I order a new jacket?",
        "Find me a good deal on shoes.",
        "Which store has the best prices?",
        "Should I return this purchase?",
        "What should I add to my shopping cart?",
    ),
    "technology": (
        "Which laptop should I get?",
        "How do I set up my new phone?",
        "What app should I use for this?",
        "How do I keep my accounts secure?",
        "Should I switch email providers?",
        "How do I turn off these notifications?",
    ),
    "values": (
        "Which charity should I give to?",
        "Is it right to accept this offer?",
        "How can I live more sustainably?",
        "Should I go to the service this week?",
        "How do I stand up for what I believe?",
        "What cause should I volunteer for?",
    ),
}

# bare stance frames, no object: what every stance's statement shares
STANCE_FRAMES = (
    "I like it.", "I love it.", "I don't like it.", "I hate it.", "I can't stand it.",
    "I avoid it.", "I never do that.", "I always do that.", "I prefer it.", "I'd rather not.",
    "I refuse to do that.", "I only do that.", "It's not for me.", "I'm not a fan of it.",
    "I have no interest in it.", "I want to do that.", "I need it.", "I'm trying to do that.",
    "I dislike it.", "I don't do that.", "I enjoy it.", "It's my favourite.",
    "I stay away from it.", "I won't do that.",
)  # fmt: skip


def _runs(sizes: list[int]) -> np.ndarray:
    return np.cumsum([0, *sizes[:-1]])


def _listed(description: str) -> list[str]:
    """The things a description lists after its title, as ``text/areas.py`` reads them."""
    pieces = (p.strip(" .") for p in re.split(r",| and ", description.split(":", 1)[-1]))
    return [p for p in pieces if p]


class Replayed:
    """The captures of a folder and the vectors the levers need."""

    def __init__(self, folder: Path) -> None:
        self.data = pr.load(folder)
        self.calls = {
            id(c["profile"]): c for rs in self.data.values() for r in rs for c in r["calls"]
        }
        embedder = OnnxMiniLMEmbedder()

        def embed(texts: list[str]) -> np.ndarray:
            return np.asarray(asyncio.run(embedder.embed(texts, "document")), np.float64)

        self.phrases = embed(list(AREA_PHRASES))
        sizes = [len(_listed(a.description)) for a in AREAS]
        if sum(sizes) != len(AREA_PHRASES):
            raise ValueError("the areas' listed things are read differently here")
        self.phrase_starts = _runs(sizes)
        names = [a.name.value for a in AREAS]
        self.exemplars = embed([t for n in names for t in EXEMPLARS[n]])
        self.exemplar_starts = _runs([len(EXEMPLARS[n]) for n in names])
        self.frames = embed(list(STANCE_FRAMES))
        self.levers = pr.Levers(self.calls, self.phrases.astype(np.float32))

    def call(self, profile: Profile) -> pr.Record:
        return self.calls[id(profile)]


def _softmax(closeness: np.ndarray, temperature: float) -> np.ndarray:
    weights = np.exp((closeness - closeness.max(axis=-1, keepdims=True)) / temperature)
    out: np.ndarray = weights / weights.sum(axis=-1, keepdims=True)
    return out


def _area_closeness(
    vectors: np.ndarray, things: np.ndarray, starts: np.ndarray, k: int
) -> np.ndarray:
    """Per row, each area's closeness: the mean of its ``k`` nearest listed things."""
    near = np.atleast_2d(vectors) @ things.T
    bounds = [*starts.tolist(), near.shape[1]]
    cols = [np.sort(near[:, a:b], axis=1)[:, ::-1][:, :k].mean(axis=1) for a, b in pairwise(bounds)]
    return np.stack(cols, axis=1)


def request_areas(
    rp: Replayed, how: Callable[[np.ndarray], np.ndarray | None], aff: float | None = None
) -> Choose:
    """The request's area shares computed again by ``how`` from its vector."""

    def choose(
        profile: Profile,
        semantic: Any,
        area: Any,
        tagged: Any,
        at: Any,
        config: Any,
        areas: Any,
        *things: Any,
    ) -> list[ProfileEntry]:
        qvec = rp.call(profile)["qvec"]
        if qvec is not None and areas is not None:
            areas = how(np.asarray(qvec, np.float64))
        if aff is not None:
            config = replace(config, area_affinity=aff)
        return profile_choose.choose(profile, semantic, area, tagged, at, config, areas, *things)

    return choose


def margin(rp: Replayed, gap: float, uniform: bool) -> Choose:
    def how(q: np.ndarray) -> np.ndarray | None:
        close = _area_closeness(q, rp.phrases, rp.phrase_starts, 1)[0]
        first, second = np.sort(close)[::-1][:2]
        if first - second >= gap:
            return _softmax(close, 0.02)
        return np.full(len(close), 1 / len(close)) if uniform else None

    return request_areas(rp, how)


def top_k(rp: Replayed, k: int, both: bool) -> Choose:
    def choose(
        profile: Profile,
        semantic: Any,
        area: Any,
        tagged: Any,
        at: Any,
        config: Any,
        areas: Any,
        *things: Any,
    ) -> list[ProfileEntry]:
        call = rp.call(profile)
        if call["qvec"] is not None and areas is not None:
            q = np.asarray(call["qvec"], np.float64)
            areas = _softmax(_area_closeness(q, rp.phrases, rp.phrase_starts, k), 0.02)[0]
            if both and call["vectors"] is not None:
                close = _area_closeness(
                    call["vectors"].astype(np.float64), rp.phrases, rp.phrase_starts, k
                )
                profile = replace(profile, areas=_softmax(close, 0.02))
        return profile_choose.choose(profile, semantic, area, tagged, at, config, areas, *things)

    return choose


def exemplars(rp: Replayed, temperature: float, aff: float | None) -> Choose:
    def how(q: np.ndarray) -> np.ndarray:
        close = _area_closeness(q, rp.exemplars, rp.exemplar_starts, 1)[0]
        return _softmax(close, temperature)

    return request_areas(rp, how, aff)


def affinity(rp: Replayed, aff: float) -> Choose:
    return request_areas(
        rp, lambda q: _softmax(_area_closeness(q, rp.phrases, rp.phrase_starts, 1)[0], 0.02), aff
    )


def zclose(rp: Replayed, spread: float) -> Choose:
    def choose(profile: Profile, semantic: Any, *rest: Any) -> list[ProfileEntry]:
        rows = profile.columns.rows
        s = np.array(semantic, dtype=np.float64)
        sd = s[rows].std()
        if sd > 1e-6:
            s[rows] = s[rows].mean() + (s[rows] - s[rows].mean()) / sd * spread
        return profile_choose.choose(profile, s, *rest)

    return choose


def zentry(rp: Replayed, scale: float, weight: float) -> Choose:
    def choose(
        profile: Profile,
        semantic: Any,
        area: Any,
        tagged: Any,
        at: Any,
        config: Any,
        areas: Any,
        *things: Any,
    ) -> list[ProfileEntry]:
        vectors = rp.call(profile)["vectors"]
        if vectors is None or len(profile.entries) < 3:
            return profile_choose.choose(
                profile, semantic, area, tagged, at, config, areas, *things
            )
        c = profile.columns
        heads = vectors[c.starts].astype(np.float64)
        cos = heads @ heads.T
        np.fill_diagonal(cos, np.nan)
        mean, sd = np.nanmean(cos, axis=1), np.nanstd(cos, axis=1)
        owner = np.repeat(np.arange(len(heads)), np.diff([*c.starts.tolist(), len(c.rows)]))
        s = np.array(semantic, dtype=np.float64)
        s[c.rows] = scale * (s[c.rows] - mean[owner]) / (sd[owner] + 1e-6)
        config = replace(config, crowding_weight=weight)
        return profile_choose.choose(profile, s, area, tagged, at, config, areas, *things)

    return choose


def object_frac(rp: Replayed, mode: str) -> Choose:
    def choose(profile: Profile, semantic: Any, *rest: Any) -> list[ProfileEntry]:
        call = rp.call(profile)
        if call["vectors"] is None or call["qvec"] is None:
            return profile_choose.choose(profile, semantic, *rest)
        facts = [f for s in profile.entries for f in s.statements]
        objects = np.stack([rp.levers.objects[f.value] for f in facts]).astype(np.float64)
        q = np.asarray(call["qvec"], np.float64)
        text, obj = call["vectors"].astype(np.float64) @ q, objects @ q
        frac = np.array(
            [min(1.0, len(f.value.split()) / max(1, len(f.text.split()))) for f in facts]
        )
        weight = {"frac": frac, "invfrac": 1 - frac, "max": np.ones_like(frac)}[mode]
        s = np.array(semantic, dtype=np.float64)
        s[profile.columns.rows] = np.maximum(text, weight * obj + (1 - weight) * text)
        return profile_choose.choose(profile, s, *rest)

    return choose


def stance_removed(
    rp: Replayed,
    rank: int,
    centred: bool,
    weight: float | None,
    share: float,
    vague: float = 0.0,
) -> Choose:
    frames = rp.frames - rp.frames.mean(axis=0) if centred else rp.frames
    basis = np.linalg.svd(frames, full_matrices=False)[2][:rank]

    def choose(
        profile: Profile,
        semantic: Any,
        area: Any,
        tagged: Any,
        at: Any,
        config: Any,
        areas: Any,
        *things: Any,
    ) -> list[ProfileEntry]:
        vectors = rp.call(profile)["vectors"]
        if vectors is None or len(profile.entries) < 2 or not config.crowding_weight:
            return profile_choose.choose(
                profile, semantic, area, tagged, at, config, areas, *things
            )
        v = vectors.astype(np.float64)
        w = v - share * (v @ basis.T) @ basis
        moved = pr.recrowded(profile, w[profile.columns.starts])
        shift = np.mean([s.crowding for s in profile.entries]) - np.mean(
            [m.crowding for m in moved.entries]
        )
        if weight is not None:
            config = replace(config, crowding_weight=weight)
        # how much of each statement is stance frame: a penalty, as crowding, for vagueness
        framed = ((v[profile.columns.starts] @ basis.T) ** 2).sum(axis=1)
        extra = vague / config.crowding_weight * framed
        entries = tuple(
            replace(m, crowding=m.crowding + float(shift) + float(x))
            for m, x in zip(moved.entries, extra, strict=True)
        )
        return profile_choose.choose(
            replace(profile, entries=entries), semantic, area, tagged, at, config, areas
        )

    return choose


def table(rp: Replayed) -> dict[str, Choose]:
    out: dict[str, Choose] = {"base": profile_choose.choose}
    for gap in (0.01, 0.02, 0.03, 0.05, 0.08):
        out[f"margin-{gap}"] = margin(rp, gap, False)
        out[f"margin-uniform-{gap}"] = margin(rp, gap, True)
    for k in (2, 3):
        out[f"top-{k}"] = top_k(rp, k, False)
        out[f"top-{k}-both"] = top_k(rp, k, True)
    for t in (0.02, 0.03, 0.05):
        out[f"exemplars-{t}"] = exemplars(rp, t, None)
    for aff in (0.25, 0.35, 0.5):
        out[f"exemplars-0.03-aff{aff}"] = exemplars(rp, 0.03, aff)
        out[f"affinity-{aff}"] = affinity(rp, aff)
    for spread in (0.05, 0.08, 0.1, 0.15):
        out[f"zclose-{spread}"] = zclose(rp, spread)
    for scale in (0.05, 0.1, 0.15):
        for weight in (0.0, 1.0):
            out[f"zentry-{scale}-w{weight}"] = zentry(rp, scale, weight)
    for mode in ("frac", "invfrac", "max"):
        out[f"object-{mode}"] = object_frac(rp, mode)
    for kind in ("noun", "thing", "stance"):
        for mix in (0.25, 0.5, 1.0):
            out[f"object-{kind}-{mix}"] = rp.levers.object_where(pr.SELECTS[kind], mix, 0.0, None)
    for rank in (1, 2, 4, 8, 24):
        for centred in (False, True):
            for weight in (None, 2.0):
                name = f"stance-r{rank}{'-centred' if centred else ''}-w{weight or 'main'}"
                out[name] = stance_removed(rp, rank, centred, weight, 1.0)
    for rank in (4, 8, 24):
        for share in (0.3, 0.5):
            for weight in (None, 2.0):
                name = f"stance-r{rank}-w{weight or 'main'}-s{share}"
                out[name] = stance_removed(rp, rank, False, weight, share)
    for rank in (4, 8, 24):
        for vague in (0.1, 0.2, 0.4):
            out[f"stance-r{rank}-vague{vague}"] = stance_removed(rp, rank, False, None, 1.0, vague)
    return out


def main() -> None:
    rp = Replayed(Path(sys.argv[1]))
    wanted = sys.argv[2:]
    if not wanted or any(w.startswith("object") for w in wanted):
        asyncio.run(rp.levers.embed_objects(rp.data))
    for name, choose in table(rp).items():
        if not wanted or any(name.startswith(w) for w in wanted):
            print(pr.evaluate(rp.data, choose, name), flush=True)


if __name__ == "__main__":
    main()
