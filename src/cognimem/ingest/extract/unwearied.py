"""A verb of weariness or of stopping, negated, read for :mod:`.detect_choices`: a double
negative that is a liking. "I never tire of X", "I never get bored of X", "I'll never
give up X", "I never skip X", "we don't grow weary of X", and in the past "I never tired
of X": for X, the object after "of",
"with" or "on" when the verb takes one. Read before the refusals, whose "never" /
"don't" would otherwise read it as a stance against "tire of X".

Which verbs: WordNet's (:mod:`cognimem.text.verb_senses`), a verb whose most frequent
sense is, or has among its kin, a verb of tiring, quitting, forgoing or omitting
("bore", "weary", "jade", "give up", "skip", "neglect", "lay off"), or "stop" or "cease"
itself (their own kin reach "interrupt" and "end", which are no giving up). Not after
"can't": "I can't stop laughing" or "can't stop thinking about X" is a moment or a
preoccupation. A participle after "get", "grow" or "become" ("get tired of", "grow bored
with") is read as its verb.

"I never tire" with no object, only how or when ("I don't get bored easily") or a new
clause next ("We'll never give up, whatever happens"), is no stance: the reader says so (an empty
object) and the clause reads nothing. Any other negated verb ("I never eat X") is left
to the refusals. Nothing here names a topic: the markers are WordNet's verbs and English
function words.
"""

from __future__ import annotations

from cognimem.ingest.extract.patterns import gated, icase
from cognimem.text.verb_senses import phrasal_verbs, verb_senses

__all__ = ["unwearied"]

# the speaker's own negated verb: "I never ...", "I'll never ...", "we don't really ..."
_NEGATED = gated(
    r"^(?:I|we)(?:'d|'ll|\s+would|\s+will)?\s+(?:(?:honestly|just|really|simply|genuinely|"
    r"truly)\s+)*(?:never|don't|do\s+not|won't|will\s+not|wouldn't)\s+(?:(?:ever|really|"
    r"just|quite|honestly)\s+)*(?P<rest>[a-z].*)",
    gate_match=True,
)
# a participle of weariness after a verb of becoming: "get tired of", "grow bored with"
_BECOME = icase(r"^(?:get|grow|become|feel)\s+(?P<adj>[a-z]+)\b\s*(?P<rest>.*)")
# the preposition a verb of weariness or giving up takes: "tire of", "give up on"
_PREPOSITION = icase(r"^(?:of|with|on)\b\s*")
# no object, only how or when: "I don't get bored easily", "I never give up, ever"
_NO_OBJECT = icase(r"^(?:(?:[a-z]+ly|anymore|again|ever|either|too|now|though|at\s+all)\b[\s,]*)*$")
# a comma or a new clause right after the verb: "We'll never give up, whatever happens",
# "I'll never give up, Sam", "I never give up when the weather turns"
_CLAUSE_NEXT = icase(
    r"^(?:,|(?:no\s+matter|even|when|whenever|if|until|unless|because|since|though|while)\b)"
)
# the verb's one or two words, without what follows them (a comma is kept: "give up, Sam")
_WORDS = (icase(r"[a-z'-]+"), icase(r"[a-z'-]+\s+[a-z'-]+"))
# a verb is one of weariness or giving up when it, or its kin, is one of these
_KIN_OF = frozenset({"tire", "quit", "forgo", "omit"})
# ... or when it is one of these itself
_ITSELF = frozenset({"stop", "cease"})
# the verbs of weariness read in the past too ("I never tired of X")
_WEARY = frozenset({"tire", "weary", "bore"})


def _gives_up(verb: str) -> bool:
    """Whether WordNet reads ``verb`` as one of weariness, stopping or giving up."""
    senses = verb_senses(verb)
    if senses is None:
        return False
    return senses.verb in _ITSELF or not _KIN_OF.isdisjoint((senses.verb, *senses.kin))


def _participle_verb(adj: str) -> str | None:
    """The verb of a participle of weariness ("tired" -> "tire", "wearied" -> "weary",
    "bored" -> "bore"), or of "weary" itself; ``None`` for any other word."""
    low = adj.lower()
    forms = [low] if not low.endswith("ed") else [low[:-1], low[:-2], f"{low[:-3]}y"]
    return next((f for f in forms if f and _gives_up(f)), None)


def _wearied(word: str, after: str) -> bool:
    """Whether ``word`` is a verb of weariness in the past with its object next ("I
    never tired of X"): a liking then as now; not another past verb ("I never skipped a
    class" is a past event)."""
    return (
        word.endswith("ed")
        and _PREPOSITION.match(after.strip()) is not None
        and (_participle_verb(word) in _WEARY)
    )


def unwearied(said: str) -> str | None:
    """What the speaker never tires of, never gives up or never skips in ``said`` ("I
    never tire of hiking in the hills" -> "hiking in the hills"); "" when such a verb
    has no object ("I never tire"); ``None`` when ``said`` is no such double negative."""
    m = _NEGATED.match(said)
    if m is None:
        return None
    rest = m.group("rest")
    if (b := _BECOME.match(rest)) is not None and _participle_verb(b.group("adj")):
        rest = b.group("rest")
    else:
        head = [w.strip(",.!?").lower() for w in rest.split(None, 2)]
        two = " ".join(head[:2])
        verb = two if len(head) > 1 and two in phrasal_verbs() else head[0]
        said_verb = _WORDS[verb.count(" ")].match(rest)
        if said_verb is None or not (_gives_up(verb) or _wearied(verb, rest[said_verb.end() :])):
            return None
        rest = rest[said_verb.end() :]
    rest = _PREPOSITION.sub("", rest.strip()).rstrip(" .!?")
    return "" if _NO_OBJECT.match(rest) or _CLAUSE_NEXT.match(rest) else rest
