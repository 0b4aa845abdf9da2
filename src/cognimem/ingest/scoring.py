"""The write gate's scores: how important an item is and how new, decided at write time
with no model call (pure functions; the funnel calls them once per item).

**Importance** (0–1) starts from the ingest profile's (a mandate's 1.0, a document's
0.4, a chat turn's 0.5) and is moved by what the text carries:

- a *content score* — with an LLM configured, the extraction's ``importance`` (the model
  judged the message); otherwise read from the text: acknowledgements and small talk
  ("thanks!", "lol ok") score low, a bare question lower than a statement, and a
  statement gains for speaking of oneself, for numbers and dates, for names and for
  length (up to a point);
- a profile of 0.9 or more (mandates, guardrails) is kept as it is: the caller said so;
- otherwise the importance is the mean of the profile's and the content score;
- the facts the extractor read raise it to their category's importance (the rule
  extractor's ``Extraction.importance``), and a message stating a **constraint** (goal,
  state, value, causal, policy) is never below :data:`CONSTRAINT_FLOOR`: the forgetting
  policy protects constraints, and the gate never drops or demotes one.

**Novelty** (0–1) is one minus the cosine similarity of the item's embedding to the
nearest item its scope held before it (or an earlier item of the same write), floored at
0: a first mention is 1.0, a near-repeat close to 0. Near-duplicates above the merge
threshold are merged instead of stored (``WriteFunnel``), so a stored item's novelty is
at least ``1 - merge_similarity``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from cognimem.models.knowledge import CONSTRAINT_CATEGORIES, FactCategory
from cognimem.text.speech import asks, is_phatic

CONSTRAINT_FLOOR = 0.9
# a profile at least this important is the caller's word (mandates, guardrails)
STATED_IMPORTANCE = 0.9

_WORD = re.compile(r"[A-Za-z0-9']+")
_FIRST_PERSON = frozenset({"i", "i'm", "i've", "i'll", "i'd", "my", "mine", "we", "we're", "our"})
_NUMBER = re.compile(r"\d")
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]{2,}")


def content_score(text: str) -> float:
    """How much a message says, read from its text alone (0.1–0.85)."""
    words = _WORD.findall(text)
    if not words:
        return 0.1
    if is_phatic(text):
        return 0.1
    lowered = [w.lower() for w in words]
    score = 0.35
    if asks(text):
        score -= 0.1
    if any(w in _FIRST_PERSON for w in lowered):
        score += 0.1
    if _NUMBER.search(text):
        score += 0.1
    if _NAME.search(text.strip()):
        score += 0.05
    # length: +0.25 at about 40 words, little more after
    score += 0.25 * min(1.0, math.log1p(len(words)) / math.log1p(40))
    return min(max(score, 0.1), 0.85)


def write_importance(
    text: str,
    profile_importance: float,
    *,
    judged: float | None = None,
    fact_importance: float | None = None,
    categories: Iterable[FactCategory] = (),
) -> float:
    """An item's importance at write time (rules in the module docstring). ``judged``:
    the LLM's importance of the message, when an LLM read it; ``fact_importance``: the
    rule extractor's importance of the facts it read; ``categories``: the categories of
    the facts read from the message."""
    if profile_importance >= STATED_IMPORTANCE:
        importance = profile_importance
    else:
        content = judged if judged is not None else content_score(text)
        importance = (profile_importance + content) / 2
        if judged is not None:
            importance = max(importance, judged)
    if fact_importance is not None:
        importance = max(importance, fact_importance)
    if any(c in CONSTRAINT_CATEGORIES for c in categories):
        importance = max(importance, CONSTRAINT_FLOOR)
    return round(min(max(importance, 0.0), 1.0), 4)


def novelty(similarity: float | None) -> float:
    """An item's novelty from the cosine similarity of its nearest predecessor (None:
    its scope held nothing yet)."""
    if similarity is None:
        return 1.0
    return round(min(max(1.0 - similarity, 0.0), 1.0), 4)
