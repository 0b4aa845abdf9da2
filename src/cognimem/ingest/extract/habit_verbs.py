"""Which verb after the speaker can be a habit's: not an auxiliary, a verb of the mind or
wanting ("I think ...", "I want ..."), nor a past form ("I wore", "I watched"), read for
the stance detectors; and which one is a habit only under a condition ("When I can't
sleep I get up"). English morphology and function words only."""

from __future__ import annotations

from cognimem.ingest.extract.patterns import IRREGULAR_PAST, icase
from cognimem.text.tokens import words

__all__ = ["NOT_HABIT_VERBS", "PAST_WORDS", "framed_verb", "present_verb"]

# the verbs that say no habit of their own ("I think ...", "I want ...")
NOT_HABIT_VERBS = frozenset(
    words(
        """am, is, are, be, have, has, do, does, don't, doesn't, can, could, will, would,
        should, shall, may, might, must, 'd, 'll, 'm, 're, think, know, guess, feel, love,
        get, seem, look, sound, become,
        like, hate, enjoy, adore, mean, wonder, hope, wish, want, say, tell, mention,
        believe, suppose, bet, agree, understand, remember, forget, see, hear, promise,
        swear, admit, also, just, really, still, never, always, only, not, got, gotta,
        gonna, wanna, used, need, prefer, thank, apologize, apologise, totally, literally,
        actually, kinda, sorta, hear"""
    )
)
# a past form after the speaker ("I never went" is narration), and "been" and "really",
# which are no habit's verb either
PAST_WORDS = f"{IRREGULAR_PAST}|been|really"
_PAST = frozenset(PAST_WORDS.split("|"))


def present_verb(verb: str) -> bool:
    """Whether ``verb`` can be the present verb of a habit: not a past form, an auxiliary
    or a verb of the mind ("I wore", "I think")."""
    low = verb.lower()
    if low in _PAST or low in NOT_HABIT_VERBS:
        return False
    return not (low.endswith("ed") and not low.endswith("eed"))


# a habit's verb under its condition: "get" with a particle ("When I can't sleep I get up
# and read", not "I get it"), or what is wanted or needed ("On a Friday night I want
# something light")
_FRAMED_VERB = icase(r"(?:get\s+(?:up|out|outside|dressed|off)|(?:want|need)\s+(?!to\b)[a-z])")


def framed_verb(verb: str, rest: str) -> bool:
    """Whether a verb that is no habit alone is one under a condition: "get up", "want
    X"."""
    return _FRAMED_VERB.match(f"{verb} {rest}") is not None
