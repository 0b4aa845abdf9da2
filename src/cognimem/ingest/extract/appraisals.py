"""Whether a job read from a sentence is a judgement of how well someone does a thing,
not what they do for a living: "I'm a great cook", "she's a terrible driver", "I'm a
world-class chef" grade the person; "I'm a head nurse", "a freelance illustrator", "a
struggling musician" name their work.

A job is an appraisal when a word before its head grades it: a word VADER's lexicon
rates strongly (at least as strongly as "good", either way: "great", "terrible",
"best", "awful"), or a rank said as a compound ("world-class", "first-rate",
"top-notch", "second-tier"). Mild ratings stay a job's description ("freelance",
"struggling"). One gate for every job pattern: :meth:`.collector.Collector.add` drops
such a job whichever detector read it.
"""

from __future__ import annotations

import re

from cognimem.text.valence import valence

__all__ = ["is_appraisal"]

# as strong as "good" (VADER 1.9) or "awful" (-2.0): "freelance" (1.2) and "struggling"
# (-1.8) only describe the work
_GRADED = 1.9
_RANK = re.compile(r"^[a-z]+-(?:class|rate|notch|tier|grade)$")
_WORD = re.compile(r"[a-z][a-z'-]*")


def is_appraisal(job: str) -> bool:
    """Whether ``job`` (the value of a job fact, lower case) grades its holder."""
    words = _WORD.findall(job.lower())
    return any(abs(valence(w)) >= _GRADED or _RANK.match(w) for w in words[:-1])
