"""Likings and dislikings said in idioms and judging words the other readers leave, read
for :mod:`.like_forms` into a stance with its whole object:

- a liking said with an adjective and its preposition, "I'm keen on X", "I'm fond of
  X", "I'm partial to X", "I'm besotted with X", "I'm big on X": for X ("I'm not
  partial to X": against; "not keen on" and "not fond of" are read first, by VADER, in
  :mod:`.rated_stances`);
- a liking or a dislike said with a verb idiom: "I thrive on X", "I get a real kick out
  of X", "I've always had a soft spot for X" for X; "I resent X", "I've lost patience
  with X", "I've got no time for X", "I can't see the appeal of X" against X;
- a kind of thing judged by an idiom, "X suits me down to the ground" (for X), or by a
  noun VADER rates after "one of life's / my", "X is one of life's little joys" (for X
  by "joys", against by a negative noun);
- a kind of thing judged by a negative word as the speaker's judgement, "X is / are
  so / just / such ... ADJ", "X is / are ADJ to me / for me", "X are an eyesore", "X
  feel(s) / seem(s) ADJ", "X strike(s) me as ADJ": against X ("Startups are chaotic"
  alone says how things are, not what the speaker avoids). ADJ is rated negative by
  VADER (at most -:data:`.rated_stances.RATED`: "depressing", "vile") or is one of the
  judging words VADER rates weakly or not at all, kept in one list
  (:data:`.stance_forms.NEGATIVE_JUDGEMENT`: "tiring", "grating", "pointless", "an
  eyesore", "a turn-off", "cringe"). "X gives me the creeps" is against X too.

Why a word list here: VADER rates none of these idioms' words strongly ("resent" -0.7,
"keen" is rated but "partial", "besotted", "thrive", "kick", "spot" are not) and
WordNet files "thrive" under change, not feeling; the lists are the idioms themselves,
nothing names a topic.

Not read: a one-off ("That support act was grating", "Today's run was mind-numbing":
the subject must name a kind of thing, :func:`.judged_kinds.kind_judged`, and only the
present tense counts); someone else's stance ("My sister thrives on X": the speaker
must be the subject); a person, the listener or the speaker's own as the object
(:func:`.strong_likes.names_a_thing`); a question.
"""

from __future__ import annotations

import re

from cognimem.ingest.extract.judged_kinds import NOT_A_KIND, kind_judged
from cognimem.ingest.extract.patterns import icase
from cognimem.ingest.extract.rated_stances import RATED
from cognimem.ingest.extract.stance_forms import NEGATIVE_JUDGEMENT
from cognimem.ingest.extract.strong_likes import names_a_thing
from cognimem.text.tokens import words
from cognimem.text.valence import valence

__all__ = ["IDIOM_WORDS", "idiom_stance", "judging"]

# the words one of which a form here needs (a clause's trigger words); a judgement VADER
# rates is hinted by :func:`.judged_kinds.judged_hint`
IDIOM_WORDS = frozenset(
    words(
        """keen, fond, partial, besotted, big, thrive, kick, spot, resent, patience, appeal,
        creeps, willies, one, ground, boring, tedious, draining, tiring, overwhelming, distracting,
        unbearable, pointless, grating, mind-numbing, tacky, eyesore, off-putting, awkward,
        overrated, daunting, chore, pain, drag, slog"""
    )
)
_DEGREE = (
    r"(?:(?:really|so|just|such|pure|utterly|absolutely|incredibly|totally|quite|pretty|"
    r"deeply|downright|plain|honestly|genuinely|very|always|still|truly|a\s+bit|rather)\s+)*"
)
# "I'm (really) keen on X", "I'm not partial to X"
_ADJECTIVE = icase(
    rf"^(?:I'm|I\s+am|we're|we\s+are|I've\s+(?:always\s+)?been|we've\s+(?:always\s+)?been)\s+"
    rf"{_DEGREE}(?P<not>not\s+{_DEGREE})?(?:keen\s+on|fond\s+of|partial\s+to|besotted\s+with|"
    r"big\s+on)\s+(?P<rest>[a-z].+)$"
)
# "I thrive on X", "I've got no time for X": the idiom, then the object
_VERB = icase(
    rf"^(?:I|we)(?:'ve|\s+have)?\s+{_DEGREE}(?:(?P<for>thrive\s+on|(?:get|got)\s+(?:an?\s+)?"
    r"(?:real\s+|huge\s+|big\s+)?kick\s+out\s+of|(?:had|have|got)\s+(?:a\s+)?(?:real\s+|big\s+"
    r"|bit\s+of\s+a\s+)?soft\s+spot\s+for)|(?P<against>resent|lost\s+(?:all\s+)?patience\s+with"
    r"|(?:got|have)\s+no\s+time\s+for|can't\s+see\s+the\s+appeal\s+of))\s+(?P<rest>[a-z].+)$"
)
# a kind of thing said first, the subject of the judgement
_KIND = rf"^(?!(?:{NOT_A_KIND})\b)(?P<rest>[a-z][\w' ,&-]{{1,80}}?)\s+"
# "Treadmills are mind-numbing for me", "Subscription boxes strike me as pointless"
# ... with a degree, a noun or a tail that makes it the speaker's judgement (checked by
# :func:`_owned`): "Startups are chaotic" or "Weather is bad" alone says how things are
_JUDGED = icase(
    _KIND + r"(?P<be>is|are|feels?|seems?|"
    r"strikes?\s+(?:me|us)\s+as)\s+(?:(?:always|still|honestly|genuinely|usually)\s+)*"
    r"(?P<degree>(?:(?:really|so|just|such|pure|utterly|absolutely|incredibly|totally|quite|"
    r"pretty|deeply|downright|plain|truly|very|a\s+bit|rather)\s+)*)(?:like\s+)?"
    r"(?P<word>(?:an?\s+)?(?:(?:total|real|complete|absolute|right)\s+)?[a-z][a-z-]+)"
    r"(?P<tail>\s+(?:to|for)\s+(?:me|us))?\s*[.!]*$"
)
# a verb in the subject: "Bright patterns make a room feel chaotic" is no kind judged
_CAUSED = icase(r"\bmakes?\b")
_CREEPS = icase(
    _KIND + r"(?:really\s+|just\s+)?"
    r"(?P<be>gives?)\s+(?:me|us)\s+the\s+(?:creeps|willies)\s*[.!]*$"
)
# "X suits me down to the ground"
_SUITS = icase(
    _KIND + r"(?:really\s+|just\s+)?"
    r"(?P<be>suits?)\s+(?:me|us)\s+down\s+to\s+the\s+ground\s*[.!]*$"
)
# "X is one of life's little joys", "X are one of my pet hates": by the rated noun
_ONE_OF = icase(
    _KIND + r"(?P<be>is|are)\s+"
    r"(?:(?:really|just|truly|easily|definitely|still)\s+)*one\s+of\s+(?:life's|my|our)\s+"
    r"(?:[a-z-]+\s+){0,2}?(?P<word>[a-z]+)\s*[.!]*$"
)
# a gerund said of the speaker: "I resent being kept waiting", "having to queue"
_GERUND = icase(r"^(?:being|having\s+to)\s+")
_JUDGING = icase(rf"^{NEGATIVE_JUDGEMENT}$")
_ARTICLE = icase(r"^(?:an?\s+)?(?:(?:total|real|complete|absolute|right)\s+)?")


def _owned(m: re.Match[str]) -> bool:
    """Whether the judgement is said as the speaker's: to them ("for me"), as how the
    thing seems ("feel", "strike me as"), with a degree ("so", "such", "just") or as a
    noun ("an eyesore")."""
    seems = not m["be"].lower().startswith(("is", "are"))
    noun = m["word"].lower().startswith(("a ", "an "))
    return bool(m["tail"] or seems or m["degree"] or noun) and not _CAUSED.search(m["rest"])


def judging(word: str) -> bool:
    """Whether ``word`` (with its article, "an eyesore") judges against what it is said
    of: VADER rates it negative, or it is one of the judging words VADER leaves."""
    bare = _ARTICLE.sub("", word)
    if any(_JUDGING.match(said) for said in (bare, f"a {bare}", f"an {bare}")):
        return True
    return " " not in bare and valence(bare) <= -RATED


def idiom_stance(said: str) -> tuple[str, bool] | None:
    """The object of a stance ``said`` in a form of the module docstring and its
    polarity (false: the speaker is against it), or ``None``."""
    if said.rstrip().endswith("?"):
        return None
    if m := _ADJECTIVE.match(said):
        return (m["rest"], not m["not"]) if names_a_thing(m["rest"]) else None
    if m := _VERB.match(said):
        thing = names_a_thing(_GERUND.sub("", m["rest"]))
        return (m["rest"], bool(m["for"])) if thing else None
    if (found := kind_judged(_CREEPS, said)) is not None:
        return found[1], False
    if (found := kind_judged(_SUITS, said)) is not None:
        return found[1], True
    found = kind_judged(_ONE_OF, said)
    if found is not None and abs(rating := valence(found[0]["word"])) >= RATED:
        return found[1], rating > 0
    found = kind_judged(_JUDGED, said)
    if found is not None and _owned(found[0]) and judging(found[0]["word"]):
        return found[1], False
    return None
