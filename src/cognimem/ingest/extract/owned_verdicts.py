"""Stances said of a kind of thing named first, in the idioms by which a speaker owns a
verdict, read for :mod:`.like_forms` into a stance with its whole object:

- a superlative, "X is the most tedious chore there is", "X are the least awful option":
  for or against X by the adjective (VADER, or a judging word VADER leaves,
  :func:`.taste_idioms.judging`; "least" turns it over);
- what X is in the speaker's time, "X are the highlight of my weekend", "X is the worst
  part of my day": for or against X by the noun or the adjective before it, as VADER
  rates it (at least :data:`_TIME_RATED`: "highlight" is 1.4);
- a relative clause of the speaker's own, "X is something I'll never get used to", "X
  are the kind I enjoy most", "X is the only way I can stay organised": the clause
  said of X ("I dread X") read by the readers of feeling and judging
  (:mod:`.feeling_verbs`, :mod:`.rated_stances`, :mod:`.taste_idioms`), else by the few
  idioms none of them read (:data:`_AGAINST_CLAUSE`, :data:`_FOR_CLAUSE`). A strong
  like so said ("X are what I'm a big fan of", :mod:`.strong_likes`) is not read: it
  was measured and dropped (``benchmarks/results/owned_verdicts.md``);
- a judgement owned by a tail, "X is a crime as far as I'm concerned", "X are a form of
  torture in my book": against X by a judging word (VADER rated at most
  -:data:`.rated_stances.RATED`, or a judging word); a praise so owned ("X is a form of
  respect in my book") says a value, which :mod:`.detect_stances` keeps whole;
- what X does to the speaker, "X make(s) me gag / cringe / laugh": against by a word
  VADER rates negative, a judging word or a symptom (:func:`.body_reactions.is_symptom`),
  for by a word VADER rates at least :data:`.rated_stances.RATED`;
- a thing ruled out for what it does to the speaker, "X give(s) me a headache, so
  they're out", "X hurt my back, so it's off the table": against X;
- a love with its reason, "I love X because ...": for X (a reason makes the love a
  standard the speaker chooses by, as a condition does in :mod:`.specified_likes`).

Not read: a thing that is no kind (:func:`.judged_kinds.kind_judged`: "That film is the
highlight of my week" is one occasion, "My son is ..." a person), a question, the past
("X was the highlight of my weekend"), someone else's clause ("X is something my wife
loves": the clause must be the speaker's). Nothing here names a topic: the markers are
function words, the owning idioms and the verbs of feeling the readers above know.
"""

from __future__ import annotations

from cognimem.ingest.extract.body_reactions import is_symptom
from cognimem.ingest.extract.feeling_verbs import feeling_stance
from cognimem.ingest.extract.judged_kinds import NOT_A_KIND, kind_judged
from cognimem.ingest.extract.patterns import icase
from cognimem.ingest.extract.rated_stances import RATED, rated_stance
from cognimem.ingest.extract.strong_likes import liked_object, names_a_thing
from cognimem.ingest.extract.taste_idioms import idiom_stance, judging
from cognimem.text.valence import valence

__all__ = ["owned_verdict"]

# "highlight" 1.4, "joy" 2.8: a noun of the speaker's time rated this far either way
_TIME_RATED = 1.0
_END = r"\s*[.!]*$"
# a kind of thing said first, the subject of the verdict
_KIND = rf"^(?!(?:{NOT_A_KIND})\b)(?P<rest>[a-z][\w' ,&-]{{1,80}}?)\s+"
_BE = r"(?P<be>is|are)\s+(?:(?:easily|by\s+far|probably|definitely|honestly|really|just)\s+)*"
# "X is the most tedious chore there is", "X are the least fun thing to do", "X are the
# best gadget for me" (a bare superlative only with "for me": "X is the best thing ever"
# praises X, it says no choice)
_SUPERLATIVE = icase(
    _KIND + _BE + r"the\s+(?:(?P<most>most|least)\s+)?(?P<word>[a-z][a-z-]+)"
    r"(?:\s+[a-z]+){0,2}?(?P<tail>\s+(?:there\s+(?:is|are)|I\s+know|ever|of\s+all|"
    r"in\s+the\s+world))?(?P<mine>\s+(?:for|to)\s+(?:me|us))?" + _END
)
# "X are the highlight of my weekend", "X is the worst part of my day"
_OF_MY_TIME = icase(
    _KIND + _BE + r"(?:the|a)\s+(?:(?P<adj>[a-z]+)\s+)?(?P<word>[a-z]+)\s+of\s+(?:my|our)\s+"
    r"(?:(?:whole|entire|working)\s+)?(?:day|days|week|weekend|weekends|month|year|life|"
    r"morning|mornings|evening|evenings|summer|winter|holiday|holidays|routine)" + _END
)
# "X is something I'll never get used to", "X are the kind I enjoy most", "X is a taste
# I've never been able to stand", "X is the only exercise I stick with"
_RELATIVE = icase(
    _KIND + _BE + r"(?:something|one\s+thing|what|(?:an?|the)\s+(?:(?:one|only)\s+)?"
    r"[a-z]+(?:\s+of\s+thing)?)\s+(?:that\s+)?"
    r"(?P<who>I|we)(?P<clause>(?:'ll|'m|'re|'d|'ve|\s+)\s*[a-z].*?)" + _END
)
# the idioms of a relative clause the readers of feeling and liking leave
_AGAINST_CLAUSE = icase(
    r"^(?:will\s+|'ll\s+|can\s+|could\s+)?never\s+(?:get\s+used\s+to|get\s+over|understand)$"
    r"|^(?:can|could)\s+(?:happily\s+)?do\s+without$"
    r"|^(?:'ve\s+|have\s+)?never\s+been\s+able\s+to\s+(?:stand|bear|stomach)$"
)
_FOR_CLAUSE = icase(
    r"^(?:really\s+|truly\s+)?(?:love|enjoy|like|adore)\s+(?:the\s+)?(?:most|best)$"
    r"|^(?:look|'m\s+looking|am\s+looking)\s+forward\s+to$"
    r"|^can\s+(?:stay|keep|get)\s+[a-z]+$"
    r"|^(?:'ll\s+|will\s+)?never\s+(?:outgrow|tire\s+of|give\s+up)$"
    r"|^(?:'ll\s+|will\s+)?always\s+(?:make|choose|pick|go\s+for)(?:\s+first)?$"
    r"|^(?:live\s+by|stick\s+(?:with|to))$"
    r"|^(?:really\s+)?love\s+to\s+[a-z]+$"
)
# a tail that makes the judgement the speaker's, and a frame before its word
_OWNED_TAIL = icase(
    r",?\s+(?:as\s+far\s+as\s+(?:I'm|I\s+am|we're|we\s+are)\s+concerned|in\s+my\s+(?:opinion|"
    r"book|view)|if\s+you\s+ask\s+me|to\s+my\s+mind|for\s+my\s+money)" + _END
)
_OWNED = icase(
    _KIND + _BE + r"(?:(?:an?|pure|nothing\s+short\s+of|nothing\s+but)\s+)?"
    r"(?:(?:form|kind|sort)\s+of\s+)?(?:(?:total|real|complete|absolute|utter)\s+)?"
    r"(?P<word>[a-z][a-z-]+)$"
)
# "X make me gag", "X makes me feel sick"
_MAKES_ME = icase(
    _KIND + r"(?:(?:always|really|just|usually)\s+)?(?P<be>makes?)\s+(?:me|us)\s+"
    r"(?:(?:feel|want\s+to)\s+)?(?:(?:so|really|a\s+bit|instantly)\s+)?(?P<word>[a-z]+)" + _END
)
# "X give me a headache, so they're out"
_RULED_OUT = icase(
    _KIND + r"(?:(?:always|really|just|usually)\s+)?(?P<be>[a-z]+)\s+(?:me|us|my)\s+[^,]+?,?\s+"
    r"so\s+(?:they're|they\s+are|it's|it\s+is|that's|that\s+is)\s+(?:out|off\s+the\s+(?:table|"
    r"list|menu)|a\s+no-go)(?:\s+for\s+(?:me|us))?" + _END
)
# a comma and a pronoun in the subject: a new clause begins there
_NEW_CLAUSE = icase(r",\s*(?:it|they|this|that|which|he|she|we|I|you)\b")
# "I love X because ..."
_REASONED_LOVE = icase(
    r"^(?:I|we)\s+(?:really\s+|truly\s+|just\s+)?love\s+(?!to\b)(?P<rest>.+?),?\s+because\s+\S"
)


def owned_verdict(said: str) -> tuple[str, bool] | None:
    """The object of a stance ``said`` in a form of the module docstring and its
    polarity (false: the speaker is against it), or ``None``."""
    if said.rstrip().endswith("?"):
        return None
    if (m := _REASONED_LOVE.match(said)) and names_a_thing(thing := liked_object(m["rest"])):
        return thing, True
    if (found := kind_judged(_RULED_OUT, said)) is not None:
        return (found[1], False) if _one_subject(found[1]) else None
    for read in (_superlative, _of_my_time, _relative, _owned, _makes_me):
        if (stance := read(said)) is not None:
            return stance if _one_subject(stance[0]) else None
    return None


def _one_subject(thing: str) -> bool:
    """Whether ``thing`` is one subject, not a clause and the start of another ("Blue's
    my colour, it" before "makes me feel calm")."""
    return _NEW_CLAUSE.search(thing) is None


def _rated(word: str, floor: float = RATED) -> bool | None:
    """For (true) or against (false) ``word`` as VADER rates it at least ``floor`` either
    way, or as a judging word; None when neither says."""
    if judging(word):
        return False
    rating = valence(word)
    return rating > 0 if abs(rating) >= floor else None


def _superlative(said: str) -> tuple[str, bool] | None:
    if (found := kind_judged(_SUPERLATIVE, said)) is None:
        return None
    m, thing = found
    polarity = _rated(m["word"])
    if polarity is None or not (m["most"] or m["mine"]):
        return None
    return thing, polarity != (m["most"] or "").lower().startswith("least")


def _of_my_time(said: str) -> tuple[str, bool] | None:
    if (found := kind_judged(_OF_MY_TIME, said)) is None:
        return None
    m, thing = found
    for word in (m["adj"], m["word"]):
        if word and (polarity := _rated(word, _TIME_RATED)) is not None:
            return thing, polarity
    return None


def _relative(said: str) -> tuple[str, bool] | None:
    if (found := kind_judged(_RELATIVE, said)) is None:
        return None
    m, thing = found
    clause = m["clause"].strip()
    if _AGAINST_CLAUSE.match(clause):
        return thing, False
    if _FOR_CLAUSE.match(clause):
        return thing, True
    restated = f"{m['who']}{m['clause']} {thing}"  # "I dread X"
    read = feeling_stance(restated) or rated_stance(restated) or idiom_stance(restated)
    return (thing, read[1]) if read is not None else None


def _owned(said: str) -> tuple[str, bool] | None:
    tail = _OWNED_TAIL.search(said)
    if tail is None or (found := kind_judged(_OWNED, said[: tail.start()])) is None:
        return None
    m, thing = found
    return (thing, False) if _rated(m["word"]) is False else None


def _makes_me(said: str) -> tuple[str, bool] | None:
    if (found := kind_judged(_MAKES_ME, said)) is None:
        return None
    m, thing = found
    word = m["word"]
    rating = valence(word)
    if is_symptom(word) or judging(word) or rating < 0:
        return thing, False
    return (thing, True) if rating >= RATED else None
