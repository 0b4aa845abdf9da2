"""Speaker focus: a question about a person is answered by what that person said.

In a conversation between several people, "What has Priya painted?" is answered by
Priya's own messages ("I finished the harbour at dusk this week"), not by the other
person's replies that address her ("Priya, your harbour painting is lovely!"), which
share as many words with the question. On the LoCoMo dev five, 97 % of the evidence
turns of every question category were said by a speaker the question names.

The *focus* of a query is the authors among the ranked candidates whom it names:

- the first one named is the subject ("What did **Rosa** tell Omar about the bakery?");
  names after it are objects and get no boost;
- only a message that tells is boosted, not one that ends in a question: that one hands
  the turn back ("Oh, neat! What made you pick those colours?"), and what it is
  about is in the other person's message (on the dev five: multi-hop 0.476 → 0.492);
  for the same reason every message that ends in a question, whoever said it, scores
  half the weight less (signal ``asks``; frac@10 0.756 → 0.765, multi-hop → 0.499,
  open-domain 0.364 → 0.377);
- names joined by "and" / "or" ("What do **Omar** and **Rosa** each enjoy?", "Who is
  older, **Marco** or **Felix**?") are one subject each: the question is decomposed into
  one sub-question per person, each ranks the candidates with its own person
  boosted, and the rankings are interleaved, so both people's evidence reaches the
  top of the packet.

Pure: names are compared as :func:`~cognimem.text.names.normalize_name` does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from cognimem.recall.analyze import STOP_WORDS, asks_when
from cognimem.recall.rerank import Ranked
from cognimem.text.names import normalize_name
from cognimem.text.speech import asks

# what may stand between two names for them to be one coordinated subject
_JOINER = re.compile(r"\s*(?:,\s*)?(?:and|or|&|as\s+well\s+as)?\s*", re.IGNORECASE)
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'"})


def focus_groups(query: str, authors: Iterable[str]) -> list[str]:
    """The authors (as normalised names) a query is about, in the order it names them:
    the subject alone, or every person of a coordinated subject ("X and Y"). Empty when
    it names none of ``authors``."""
    text = query.translate(_APOSTROPHES)
    spans: list[tuple[int, int, str]] = []
    # each name once: a read's ~25 candidates have a few authors between them
    for author in {normalize_name(a) for a in set(authors) if a and a.strip()}:
        if not author:
            continue
        pattern = re.compile(rf"(?<!\w){re.escape(author)}(?:'s)?(?!\w)", re.IGNORECASE)
        for m in pattern.finditer(text):
            if author in STOP_WORDS and not (m.start() > 0 and text[m.start()].isupper()):
                continue  # "Will it rain?" names nobody; "What did Will say?" does
            spans.append((m.start(), m.end(), author))
    if not spans:
        return []
    spans.sort()
    chosen = [spans[0][2]]
    end = spans[0][1]
    for start, stop, author in spans[1:]:
        if not _JOINER.fullmatch(text[end:start]):
            break
        if author not in chosen:
            chosen.append(author)
        end = stop
    return chosen


def focus(ranked: Sequence[Ranked], query: str, weight: float) -> list[Ranked]:
    """``ranked`` (best first) with the query's focus applied: each message of the
    subject's that tells scores ``weight`` more (signal ``speaker``), each message that
    asks ``weight / 2`` less (signal ``asks``); a coordinated subject gets one such
    ranking per person, interleaved. Unchanged when ``weight`` is 0, the query names
    none of the candidates' authors, or it asks "when": the dated signal ranks for that
    (``recall/temporal.py``), and the focus would lift the subject's undated messages
    over the one that dates the event (LoCoMo rotation: off for "when" questions is
    better on all four fold rows, frac@10 0.7613 → 0.7632 and 0.7987 → 0.8039 on the
    check conversations; temporal back to 0.912 from 0.899)."""
    if weight <= 0 or not ranked or asks_when(query):
        return list(ranked)
    groups = focus_groups(query, (r.item.author for r in ranked if r.item.author))
    if not groups:
        return list(ranked)
    # a message that asks hands the turn back: half the weight down, whoever said it
    base = [r if _tells(r) else _asks(r, weight / 2) for r in ranked]
    rankings = [_boosted(base, person, weight) for person in groups]
    if len(rankings) == 1:
        return rankings[0]
    return _interleave(rankings)


def _boosted(ranked: Sequence[Ranked], person: str, weight: float) -> list[Ranked]:
    out: list[Ranked] = []
    for r in ranked:
        if _tells(r) and r.item.author and normalize_name(r.item.author) == person:
            signals = {**r.signals, "speaker": 1.0}
            r = replace(r, score=r.score + weight, signals=signals)
        out.append(r)
    out.sort(key=lambda r: (-r.score, r.item.id))
    return out


def _asks(r: Ranked, penalty: float) -> Ranked:
    return replace(r, score=r.score - penalty, signals={**r.signals, "asks": 1.0})


def _tells(r: Ranked) -> bool:
    """Whether a message tells rather than asks: one that ends in a question hands the
    turn back ("Oh, neat! What made you pick those colours?"), and what it is
    about is usually in the other person's message."""
    return not asks(r.item.text)


def _interleave(rankings: Sequence[list[Ranked]]) -> list[Ranked]:
    """Round-robin over the rankings, each item once (where it first comes up)."""
    out: list[Ranked] = []
    seen: set[str] = set()
    cursors = [0] * len(rankings)
    while any(c < len(r) for c, r in zip(cursors, rankings, strict=True)):
        for i, ranking in enumerate(rankings):
            while cursors[i] < len(ranking) and ranking[cursors[i]].item.id in seen:
                cursors[i] += 1
            if cursors[i] < len(ranking):
                pick = ranking[cursors[i]]
                seen.add(pick.item.id)
                out.append(pick)
                cursors[i] += 1
    return out
