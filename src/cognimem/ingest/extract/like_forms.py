"""Likes and dislikes said in the plainer voices :mod:`.strong_likes` and
:mod:`.stance_forms` leave alone, read for :mod:`.detect_choices` into a stance with its
whole object:

- a like said against its alternative ("I like X rather than Y", "I like X more than
  Y"): a choice, cut before the alternative by the caller;
- what the speaker's body reacts badly to ("My skin reacts badly to X", "I react badly
  to X", and the forms of :mod:`.body_reactions`: "X hurts my knees", "X gives me a
  headache", "I get carsick on X"): against it;
- what spoils a thing for the speaker ("X ruins a film for me") and what they will not
  be near ("I don't want to be anywhere near X"): against it;
- last, a judgement VADER rates (:mod:`.rated_stances`: "I find X distracting") and a
  verb of feeling or avoiding WordNet knows (:mod:`.feeling_verbs`: "I abhor X", "I shun
  X", "X irritates me"), then an idiom or a judging word VADER leaves
  (:mod:`.taste_idioms`: "I'm keen on X", "I thrive on X", "X are so tiring"), then a
  verdict the speaker owns by an idiom (:mod:`.owned_verdicts`: "X is something I'll
  never get used to", "X are the highlight of my weekend", "X is a crime as far as I'm
  concerned", "X make me gag", "I love X because ...").

Not one: a like or enjoyment with no alternative ("I enjoy X", "I like to swim"): a
preference only, or a strong like when said with an intensifier ("I really enjoy X":
:mod:`.strong_likes`, tried after these forms); a wish ("I'd like X rather than Y");
what is liked of the conversation, the listener, a person or the speaker's own (checked
by :func:`.strong_likes.names_a_thing`); a question; someone else's like or reaction
("My son loves X rather than Y": a stance is the speaker's). Nothing here names a topic:
the markers are verbs of liking, reacting and spoiling, and function words.
"""

from __future__ import annotations

from cognimem.ingest.extract.body_reactions import BODY_WORDS, body_reaction
from cognimem.ingest.extract.feeling_verbs import feeling_stance
from cognimem.ingest.extract.owned_verdicts import owned_verdict
from cognimem.ingest.extract.patterns import gated, icase
from cognimem.ingest.extract.rated_stances import rated_stance
from cognimem.ingest.extract.strong_likes import liked_object, names_a_thing
from cognimem.ingest.extract.taste_idioms import IDIOM_WORDS, idiom_stance
from cognimem.ingest.extract.top_likes import TOP_WORDS, top_like
from cognimem.ingest.extract.vocabulary import BODY_PARTS
from cognimem.text.tokens import words

__all__ = ["LIKE_WORDS", "like_form"]

# the words without one of which no form here can match (a clause's trigger words)
LIKE_WORDS = (
    TOP_WORDS
    | BODY_WORDS
    | IDIOM_WORDS
    | frozenset(words("""like, enjoy, react, reacts, ruin, ruins, spoil, spoils"""))
)
_MORE = (
    r"(?:(?:really|truly|just|so|totally|genuinely|honestly|do|always|still|also|much|"
    r"very\s+much|absolutely|simply)\s+)"
)
# "I like X rather than Y", "I like X more than Y", "I like X over Y"
_LIKE_OVER = icase(
    rf"^(?:I|we)\s+{_MORE}*(?:like|enjoy)\s+(?!to\b)(?P<rest>.+?\s+(?:rather than|instead "
    r"of|more than|over)\s+.+)$"
)
# "My skin reacts badly to X", "I react badly to X" (not someone else: "my son reacts")
_BODY = "|".join(sorted(BODY_PARTS, key=len, reverse=True))
_REACTS = gated(
    rf"^(?:I|we|my\s+(?:{_BODY}))\s+(?:\w+ly\s+)?reacts?\s+(?:really\s+|very\s+)?"
    r"(?:badly|poorly|terribly|horribly|awfully|strongly)\s+to\s+(?P<rest>.+)$",
    gate_match=True,
)
# "I don't want to be anywhere near X", "we don't want to live next to X"
_NOT_NEAR = gated(
    r"^(?:I|we)\s+(?:don't|do\s+not|never|won't)\s+(?:ever\s+)?"
    r"(?:want|like|choose)\s+to\s+(?:be|live|stay|sleep|sit|work)\s+(?:anywhere\s+)?"
    r"(?:near|close\s+to|next\s+to|beside|by)\s+(?P<rest>.+)$",
    gate_match=True,
)
# "Subtitles ruin a film for me", "X spoils any trip for us"
_RUINS = gated(
    r"^(?P<rest>(?!(?:it|that|this|he|she|they|you|there|which|what)\b)[a-z][\w' ,&-]{1,60}?)"
    r"\s+(?:always\s+|just\s+|really\s+)?(?:ruins?|spoils?)\s+(?:\w+\s+){1,4}?for\s+(?:me|us)"
    r"\s*[.!]*$",
    gate_match=True,
)


def like_form(said: str) -> tuple[str, bool] | None:
    """The object of a like or dislike ``said`` in one of the voices of the module
    docstring and its polarity (false: the speaker is against it); ``None`` when it is
    said in none. A choice's object keeps its alternative ("X rather than Y"): the caller
    cuts it."""
    if said.rstrip().endswith("?"):
        return None
    body = body_reaction(said)
    if body is not None and names_a_thing(body):
        return body, False
    for pattern in (_REACTS, _RUINS, _NOT_NEAR):  # a dislike
        m = pattern.match(said)
        if m:
            return m.group("rest"), False
    m = _LIKE_OVER.match(said)
    if m and names_a_thing(rest := liked_object(m.group("rest"))):
        return rest, True
    top = top_like(said)  # "X is my absolute favourite", "I like to keep X"
    if top is not None:
        return top, True
    # "I find X distracting", "I'm not fond of X"; else "I abhor X", "X irritates me";
    # else "I'm keen on X", "X are so tiring"; else "X is something I'll never get used to"
    read = rated_stance(said) or feeling_stance(said) or idiom_stance(said)
    return read or owned_verdict(said)
