"""From a message to the clauses the detectors read.

A message is split into sentences (:func:`cognimem.text.sentences.split_sentences`); a
sentence is tidied (:func:`tidy`), dropped when it cannot state a fact
(:func:`is_statement`: a question, a hypothetical, reported speech), and split into
clauses (:func:`clause_parts`).
:func:`prepare_clause` cleans a clause (opening discourse markers, "I think", "really"
dropped), notes hedges, "used to" / "no longer" / "anymore" and change words as flags,
and resolves and blanks out its time expressions. :func:`lead_condition` finds the
condition a sentence opens with ("When I travel, ..."), kept for the stance it frames;
:func:`is_subordinate` tells a clause that only states a condition.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from cognimem.ingest.extract import lexicon as lx
from cognimem.ingest.extract.earnest import is_unmeant
from cognimem.ingest.extract.patterns import INNER_STOP, NOT_PAST_ED, NOT_WEARIED, gated, icase
from cognimem.text.events import LOOKS_AHEAD as _AHEAD
from cognimem.text.literals import Gated, WordGated
from cognimem.text.sentences import inner_stops
from cognimem.text.temporal import TimeMention, find_times
from cognimem.text.tokens import tokens

__all__ = [
    "Clause",
    "after_conjunctions",
    "clause_parts",
    "is_statement",
    "is_subordinate",
    "lead_condition",
    "prepare_clause",
    "shield_stops",
    "stated_head",
    "tidy",
    "unify",
    "unshield",
]


_QUOTES = re.compile(r"[’‘`´]")
_DOUBLE_QUOTES = re.compile(r"[“”]")
# a lone lower-case "i" ("i think", "so do i"): the literal first (the lookbehind after it
# asks what the lookbehind before it did), so the engine skips ahead to each "i"
_LONE_I = icase(r"(?-i:i)(?<![\w']i)(?=['\s,.!?;]|$)")
_CONTRACTIONS: tuple[tuple[re.Pattern[str] | Gated, str], ...] = (
    (_LONE_I, "I"),
    *(
        (gated(p), r)
        for p, r in (
            (r"\bim\b", "I'm"),
            (r"\bI am\b", "I'm"),
            (r"\bwe are\b", "we're"),
            (r"\b(I|we)'ve\b", r"\1 have"),
            (r"\b(I|we) have got\b", r"\1 have"),
            (r"\b(do|does|did|is|are|was|were|could|would|should|have|has) not\b", r"\1n't"),
            (r"\bcan ?not\b", "can't"),
            (
                r"\b(don|can|won|didn|doesn|isn|aren|wasn|weren|haven|hasn|shouldn|couldn|wouldn)t\b",
                r"\1't",
            ),
            (r"\bive\b", "I have"),
        )
    ),
)
_LEAD = icase(
    r"^(?:(?:actually|honestly|btw|by the way|oh|ah|so|also|and|but|plus|anyway|anyways|"
    r"hey|hi|hello|haha+|lol|um+|uh+|now|then|tbh|to be honest|personally|fun fact|fyi|"
    r"just so you know|as for me|for the record|speaking of which|guess what)\b[\s,!.:;-]*|"
    r"(?:no|yes|yeah|yep|yup|ok|okay|sure|right|true|well|wow|thanks|thank you|nice|cool|"
    r"great|awesome|aw+|omg|same|me too)\s*[,!.:;-]+\s*)+"
)
_HEDGE_LEAD = icase(
    r"^(?:I think|I guess|I suppose|I believe(?! in\b)|I feel like|I'd say|I reckon|"
    r"I'm pretty sure|I'm fairly sure|pretty sure)(?: that)?\b[\s,]*"
)
_HEDGE_WORD = gated(r"\b(?:maybe|probably|perhaps|possibly|might|kind of|sort of|kinda|sorta)\b")
# adverbs between a subject and its verb ("I really love", "we have always been"),
# dropped from the clause the detectors read
_ADVERB_WORDS = (
    "really|absolutely|totally|also|just|recently|actually|currently|still|truly|"
    "honestly|genuinely|definitely|seriously|literally|finally|now|even|first|kind of|"
    "sort of|kinda|sorta|probably|maybe|possibly|pretty|super|so|very|quite|both|all|"
    "already|originally|mostly|mainly|officially|completely|particularly|certainly|"
    "usually|generally|normally|typically|obviously|clearly|always|simply|absolutely|"
    "personally|happily|proudly|secretly|only recently|only just"
)
# every match holds one of the adverbs as a word between white space ("kind of": "kind"),
# so an ASCII clause without any is not scanned
_ADVERBS = WordGated(
    icase(
        r"\b(I|we|I'm|we're|I have|we have|I have been|we have been|I'd|don't|didn't|not|"
        rf"can't)\s+(?:(?:{_ADVERB_WORDS})\s+)+"
    ),
    (w.split()[0] for w in _ADVERB_WORDS.split("|")),
)
_DO_VERB = gated(r"\b(I|we) do (love|like|enjoy|hate|prefer|adore)\b")
_USED_TO_BE = gated(r"\b(I|we) used to be\b")
_USED_TO = gated(r"\b(I|we) used to\b")
_NO_LONGER = gated(r"\b(I|we|I'm|we're) no longer\b")
_ANYMORE = gated(r"\s*\b(?:anymore|any more|any longer)\b")
_CHANGE = gated(r"\b(?:now|again|anymore|any more|no longer|these days|nowadays|started|stopped)\b")
_CLAUSE_BREAK = gated(
    r"\s*(?:[;:]|\s-\s|—)\s*|(?<!^me)(?<!^I),?\s+(?:but|and|so|because|though|although|while|"
    r"whereas|plus|cause|cuz)\s+(?=(?:I|I'm|I'd|I'll|we|we're|my|our|please|don't|never|now)\b)|"
    r",\s+(?=(?:I|I'm|I'd|we|we're|my|our|please|now|but)\b)|"
    # "..., so no meat dishes please": a request after the statement
    r",\s+(?:so|but|and)\s+(?=(?:no|nothing)\s+[^.;!?]{2,80}?,?\s+please\b)"
)
_HEAD_CUT = re.compile(rf"{_CLAUSE_BREAK.pattern}|,\s+|\s+(?=(?:because|cause|cuz)\b)", re.I)
_BUT_I = icase(r",?\s+but\s+(?=(?:I|I'm|I'd|I've|we|we're)\b)")
_QUESTION = icase(
    r"^(?:(?:do|does|did|are|is|was|were|can|could|would|will|should|have|has|had|shall)\s+"
    r"(?:you|we|they|he|she|it|there|your|that|this|the|u|ya|anyone|I)\b|"
    r"(?:what|where|when|why|who|which|how)(?:'s|\s+(?:do|does|did|is|are|was|were|can|"
    r"could|would|will|should|have|has|about|long|often|much|many|come))\b)"
)
_HYPOTHETICAL = gated(
    r"^(?:imagine|suppose|supposing|what if|hypothetically|theoretically|"
    r"let's say|let us say|say|pretend|assume|assuming|in theory|in my dreams|"
    r"in (?:another|a parallel|an alternate|an alternative|a different|some other) "
    r"(?:life|universe|world|timeline|reality|dimension)|"
    r"for (?:argument's sake|the sake of argument)|(?:I\s+|I'm\s+)?wonder(?:ing)? "
    r"(?:if|whether)|"
    # a hope about what others will do or what will happen: "I really hope my brother
    # stops ..." (not "I hope to run a marathon": a goal)
    r"(?:I|we)(?:\s+(?:really|so|just|truly|sincerely|do))*\s+hope(?!\s+to\b))\b|"
    # the same request to suppose after a lead-in, on the speaker: "let's pretend I ...",
    # "play along and assume I ...", "just imagine I'm ..." (not "... and assume the
    # trains are fine")
    r"\b(?:let's|let us|and|just|now|so|okay|ok)\s+(?:just\s+)?(?:imagine|suppose|pretend|"
    r"assume|picture)\s+(?:that\s+)?(?:I|I'm|I'd|I've|we|we're|me|my)\b|"
    r"\bI (?:used to think|thought|assumed|had assumed) (?:that )?I\b|"
    r"\bif (?:I|we) (?:were|was|had|could|would|lived|moved)\b|\b(?:I|we) wish\b|"
    r"\b(?:I|we)(?:'d| would)\b(?! (?:like|love) to\b| (?:much |far )?(?:rather|prefer|sooner)\b|"
    r" (?:always )?(?:choose|pick|adopt|go for)\b|"
    # "I'd take X over Y": a choice between two, not a wish
    r" (?:always |happily |gladly )?take\b(?=[^.;!?]*\s(?:over|instead of)\s)|"
    # "I'd never buy a used car": a refusal (not "I'd never been", "never have guessed")
    r" (?:happily |gladly )?never\b(?! (?:have|been|had|seen|heard|met|done|gone|known|felt|"
    r"thought|got|gotten|"
    r"taken|given|eaten|driven|flown|made|found|left|kept|lost|won|spent|told|said|come|"
    r"become|run|worn|written|ridden|fallen|grown|shown|[a-z]+ed)\b))"
)
# "if" opens a hypothetical ("If I won the lottery, ...") unless it is a real condition:
# present in the "if" clause, a standing rule in the main one ("If I'm cooking for the
# kids I skip the chilli", "if it rains I never cycle")
_IF = icase(r"^(?:if|unless)\b")
_IRREALIS = icase(
    r"\b(?:were|was|had|could|would|did|'d|went|got|ever|only|might|should|won|lost|"
    rf"{NOT_PAST_ED}[a-z]+ed|tomorrow|tonight|today|this (?:week|weekend|morning|afternoon|"
    r"evening)|next)\b"
)
_REAL_IF = icase(
    r"^(?:if|unless)\s+(?P<cond>[^,]{3,60}?),?\s+(?:I|we)(?:\s+|(?='))(?:(?:always|usually|"
    r"generally|normally|"
    r"tend to|try to|just|really)\s+)*(?:never|only|don't|won't|can't|avoid|skip|stick|"
    r"prefer|'d rather|go for|opt for|always|love|like|enjoy|'ll (?:always|never|only))\b|"
    # "if I can, I walk": a rule kept where it can be
    r"^if\s+(?P<can>(?:I|we)\s+can|possible|at all possible),?\s+(?:I|we)\b"
)
# what someone else says, thinks or suspects about the speaker or a third person: the
# reporter's word, not a fact ("My mom thinks I should ...", "People say I snore")
_REPORTED = icase(
    # "..., whatever she says": a concession, nobody's words reported
    r"(?<!whatever )(?<!no matter what )"
    r"\b(?P<who>he|she|they|people|everyone|everybody|someone|somebody|"
    r"(?-i:(?!No\b|Not\b)[A-Z][a-z]+)|"
    # any reporter a determiner opens, of one or two words: "my mom", "the cashier",
    # "a stranger", "the fortune teller" (not "the day I said ...")
    r"(?:my|our|your|his|her|their|the|a|an) (?:(?!I\b)[\w-]+ )?(?!(?:I|we|you)\b)[\w-]+)"
    # "everyone at work assumes", "people in my family think": who, and where they are
    r"(?: (?:at|in|on|from) (?:my |our |the )?[\w-]+)?"
    r" (?:(?:always|keeps?|kept|still|also) )?(?:say|said|says|saying|told me|"
    r"tells me|telling me|think|thinks|thought|mentioned|claim|claims|claimed|asked|believe|"
    r"believes|believed|reckon|reckons|reckoned|insist|insists|insisted|swear|swears|swore|"
    r"suspect|suspects|suspected|assume|assumes|assumed|guesses|guessed|joke|jokes|joked|"
    r"joking|(?:is|was|are|were) (?:convinced|sure)|"
    # a quote said with "like" or "goes": "she was like, I'm moving to Berlin"
    r"(?:is|was|are|were|'s) (?:all |just |totally |literally )?like(?=,)|(?:goes|went)(?=,))\b"
    # "the form asked for my job": a request, no one's word on anybody
    r"(?!\s+for\b)"
)
# a question the speaker asks or is unsure of: "I asked my GP whether I'm anaemic",
# "I'm not sure if I'm allergic to X" (what follows is asked, not known)
_ASKED = gated(
    r"\b(?:I|we)(?:'ve| have)?\s+(?:(?:keep|kept|wanted to|want to|need to|meant to|"
    r"have to|had to|was going to|'m going to|am going to)\s+)?(?:asked|ask|asking)\s+"
    r"(?:[\w']+\s+){0,3}?(?:if|whether)\b|\b(?:I'm|I am|we're|we are)\s+(?:not|never)\s+"
    r"(?:sure|certain)\s+(?:if|whether)\b"
)
_ARTICLES = frozenset({"the", "a", "an"})
# what a reporter's word is about, right after its verb: the speaker
_ON_THE_SPEAKER = icase(r"\s+(?:that\s+)?(?:I|I'm|I'd|I've|I'll|me|my|we|we're|our|us)\b")
# whose word on the speaker's body is a finding, not hearsay (the reporter's last word)
_MEDICAL_REPORTER = frozenset({"doctor", "dentist", "allergist", "therapist"})
# hearsay: what the speaker was told, not what they know ("Apparently I'm allergic ...",
# "Rumor has it ...", "According to my wife ...", "I heard that ...")
_HEARSAY = icase(
    r"^(?:apparently|supposedly|allegedly|reportedly|rumou?r has it|(?:the )?word is|legend has it|"
    r"(?:the )?word on the street is|(?:the )?rumou?r (?:is|says)|(?:the )?gossip is|"
    r"according to\b|(?:I|we)(?:'ve| have)? (?:heard|read) (?:that|somewhere|it said))\b"
)
# a denial of the past: what the speaker never did or was, or never said ("No, I never
# lived in Seattle", "I was never a teacher"). It corrects a memory (lifecycle/revise.py
# invalidates the fact it names) and states nothing to keep. A habit in the present ("I
# never eat pork") is a rule and stays one; so is an experience in the perfect ("I've
# never liked olives") unless the sentence says a memory is wrong, and so is a liking
# never wearied of ("I never tired of X")
_NEVER_DID = (
    r"never (?:(?:actually|really|even|ever|once|officially)\s+)?"
    rf"(?:{NOT_WEARIED}{NOT_PAST_ED}\w+ed|had|was|were|been|said|went|did|made|got|took|met|knew|ate|drank|"
    r"drove|wrote|told|saw|thought|owned)\b"
)
_DENIAL = icase(
    rf"\b(?:I|we) {_NEVER_DID}|\b(?:I|we) (?:was|were) never\b|\bdid(?:n't| not) (?:say|tell)\b|"
    r"\byou(?:'ve| have)? got (?:it|that|this) wrong\b|\byou(?:'re| are) wrong\b"
)
_CORRECTION = gated(
    r"^\W*(?:no|nope)\b|\b(?:that|it)(?:'s| is| was) (?:wrong|incorrect|not (?:right|true|"
    r"correct))\b|\bnot true\b"
)
_PERFECT_DENIAL = icase(rf"\b(?:I|we)(?: have| had|'ve|'d) {_NEVER_DID}")
# a joke taken back in the same sentence ("I'm a vegetarian, just kidding")
# ("I'm not kidding, ..." and "no joke, ..." say the opposite)
_JOKE = gated(r"\b(?:just kidding|kidding|joking|jk|j/k)\b")
_NOT_JOKING = icase(r"\b(?:not|no)\s*$")
# laughter: the sentence may be a joke; a constraint read from it would steer every
# later answer, so laughter keeps the lasting facts and drops the constraints
_LAUGHTER = gated(
    r"\b(?:lol(?:ol)*|lmf?ao|rofl|a?ha(?:ha)+h?|ha|hehe+|xd)\b|[\U0001F602\U0001F923\U0001F606"
    r"\U0001F605\U0001F61C\U0001F61D]|(?<!\w):[pP](?!\w)"
)
_BE = {"i": "I'm", "we": "we're"}
# a clause that looks ahead ("I'll ...", "next ..."): its times are read forwards
_LOOKS_AHEAD = Gated(_AHEAD)


@dataclass
class Clause:
    """One clause as the detectors read it."""

    text: str  # cleaned, time expressions blanked out (read by the detectors)
    base: str  # cleaned before "used to" / "no longer" / "anymore" were rewritten
    timed: str  # cleaned, with its time expressions
    said: str  # as written, with its adverbs ("always") and time expressions
    evidence: str
    times: list[TimeMention]
    hedged: bool
    past: bool  # "used to", "no longer": the statement held before, not now
    anymore: bool
    change: bool  # "now", "again", "started": a new state replaces an old one
    words: frozenset[str]  # lower-case words, to skip detectors that cannot fire

    def may(self, detector: str) -> bool:
        """Whether the clause holds one of ``detector``'s trigger words (without one it
        cannot fire)."""
        return not self.words.isdisjoint(lx.TRIGGERS[detector])


def _trigger_words(text: str) -> frozenset[str]:
    """The words a clause's triggers see: each as written and, for a contraction of
    "is" / "has" or a possessive ("knee's been"), without its "'s"."""
    found = tokens(text)
    if "'s" not in text and "'S" not in text:  # no word ends in "'s" (most clauses)
        return frozenset(found)
    return frozenset([*found, *(w[:-2] for w in found if w.endswith("'s"))])


def unify(text: str) -> str:
    """Quotes and apostrophes written one way, whitespace runs as one space."""
    if text.isascii():  # the only ASCII quote to unify is "`"
        text = text.replace("`", "'")
    else:
        text = _DOUBLE_QUOTES.sub('"', _QUOTES.sub("'", text))
    # what ``re.sub(r"\s+", " ", text)`` gives (``\s`` is what ``str.split`` splits at),
    # without a replacement at every space
    inner = " ".join(text.split())
    if not inner:
        return " " if text else ""
    return f"{' ' if text[0].isspace() else ''}{inner}{' ' if text[-1].isspace() else ''}"


def shield_stops(sentence: str) -> str:
    """``sentence`` with the full stops inside its names, numbers and abbreviations ("J. K.
    Rowling", "Dr. Lee", "3.5", "e.g.": :func:`cognimem.text.sentences.inner_stops`)
    written as ``INNER_STOP``, so that a value read up to a full stop reads on past them;
    :func:`unshield` writes them back (same length, so positions hold)."""
    stops = inner_stops(sentence)
    if not stops:
        return sentence
    chars = list(sentence)
    for at in stops:
        chars[at] = INNER_STOP
    return "".join(chars)


def unshield(text: str) -> str:
    """``text`` with its inner full stops written as full stops again."""
    return text.replace(INNER_STOP, ".")


def tidy(sentence: str) -> str:
    """Contractions and "I" spelled one way ("im", "I am" -> "I'm"; "do not" -> "don't")."""
    text = sentence
    for pattern, replacement in _CONTRACTIONS:
        text = pattern.sub(replacement, text)
    return text.strip()


def is_statement(text: str) -> bool:
    """Whether a tidied sentence can state a fact: not a question (nor one the speaker
    asks: "I asked my GP whether I'm anaemic"), a hypothetical ("if I were vegetarian",
    "I wish ...") or reported speech ("she said ...", "he was like, ..."), except what a
    doctor or therapist said; nor hearsay ("apparently ..."), a denial of the past ("I
    never lived in Seattle"), a joke taken back ("... just kidding") or a sentence that
    does not mean what it says (sarcasm, a question inside it: :mod:`.earnest`)."""
    if _QUESTION.match(text) or _HYPOTHETICAL.search(text) or _HEARSAY.match(text):
        return False
    if _ASKED.search(text):
        return False
    if _IF.match(text):
        real = _REAL_IF.match(text)
        if real is None or (real["can"] is None and _IRREALIS.search(real["cond"])):
            return False
    if is_unmeant(text):
        return False
    joke = _JOKE.search(text)
    if _DENIAL.search(text) or (joke and not _NOT_JOKING.search(text[: joke.start()])):
        return False
    if _CORRECTION.search(text) and _PERFECT_DENIAL.search(text):
        return False
    return not _reports(text)


def _reports(text: str) -> bool:
    """Whether ``text`` gives someone else's word or belief: on anyone, by a pronoun, a
    name or "my ..." ("my mom thinks she's ..."); by any other reporter, when the
    sentence opens with it ("The article claims ...") or its word is on the speaker
    ("... the cashier thought I was ..."; not "I live in Rome and the guide says it's
    lovely"). A doctor's or therapist's word is a finding."""
    reported = _REPORTED.search(text)
    if reported is None:
        return False
    who = reported.group("who").lower().split()
    if who[-1] in _MEDICAL_REPORTER:
        return False
    return (
        who[0] not in _ARTICLES
        or reported.start() == 0
        or _ON_THE_SPEAKER.match(text, reported.end()) is not None
    )


def stated_head(text: str) -> str | None:
    """The statement a sentence that :func:`is_statement` turns down opens with, when
    only a later clause made it no statement: a question, a hypothetical or someone's
    word said after it ("I can't stand crowded pubs, I'd go mad", "I hate camping,
    what's the point?", "I don't eat sushi, my friends think I'm mad"); or the one it
    says after someone's word on it ("My wife says I'm fussy, but I don't like X").
    ``None`` when there is none, or the sentence takes itself back (a joke, a denial) or
    does not mean what it says (:mod:`.earnest`)."""
    if _JOKE.search(text) or _DENIAL.search(text) or _CORRECTION.search(text):
        return None
    if is_unmeant(text):
        return None
    cuts = sorted({m.start() for m in _HEAD_CUT.finditer(text)}, reverse=True)
    for cut in cuts:
        head = text[:cut].strip()
        if head and not head.endswith("?") and is_statement(head):
            return head
    # ... or, said after someone's word on it, the speaker's own ("My wife says I'm
    # fussy, but I just don't like X"): what follows the "but"
    but = _BUT_I.search(text)
    if but and _reports(text[: but.start()]):
        tail = text[but.end() :].strip()
        if tail and not tail.endswith("?") and is_statement(tail):
            return tail
    return None


def is_laughing(text: str) -> bool:
    """Whether a sentence laughs at itself ("I'm allergic to exercise, lol")."""
    return _LAUGHTER.search(text) is not None


def clause_parts(sentence: str) -> list[str]:
    """A tidied sentence split where a new clause starts ("..., but I ...", "; ")."""
    return _CLAUSE_BREAK.split(sentence)


# a conjunction or a comma after which a clause of its own may start
_CONJUNCTION = icase(
    r",\s*(?:(?:so|and|but|because|since)\s+)?(?=[a-z])|\s+(?:so|and|but|because|since)\s+(?=[a-z])"
)


def after_conjunctions(said: str) -> list[str]:
    """What follows each conjunction or comma in ``said``, where a clause of its own may
    start ("I'm not a big drinker so pubs aren't my thing": "pubs aren't my thing")."""
    return [said[m.end() :] for m in _CONJUNCTION.finditer(said)]


def prepare_clause(part: str, evidence: str, reference: datetime) -> Clause | None:
    """``part`` cleaned and flagged, its times resolved against ``reference``; ``None``
    when too little is left to read."""
    text = _LEAD.sub("", part.strip()).strip()
    hedged = False
    stripped = _HEDGE_LEAD.sub("", text)
    if stripped != text:
        hedged, text = True, _LEAD.sub("", stripped)
    if _HEDGE_WORD.search(text):
        hedged = True
    said = text
    text = _DO_VERB.sub(r"\1 \2", _ADVERBS.sub(r"\1 ", text))
    if len(text) < 3:
        return None
    change = _CHANGE.search(text) is not None
    # times are read as written ("8 p.m.", "7.30"); the positions are the same
    ahead = _LOOKS_AHEAD.search(text) is not None
    times = find_times(unshield(text), reference, prefer_future=ahead)
    base = _blank(text, times)
    past = bool(_USED_TO.search(base) or _NO_LONGER.search(base))
    rewritten = _USED_TO.sub(r"\1", _USED_TO_BE.sub(lambda m: _BE[m.group(1).lower()], base))
    rewritten = _NO_LONGER.sub(r"\1", rewritten)
    anymore = _ANYMORE.search(rewritten) is not None
    rewritten = _ANYMORE.sub("", rewritten)
    return Clause(
        text=rewritten,
        base=base,
        timed=text,
        said=said,
        evidence=evidence,
        times=times,
        hedged=hedged,
        past=past,
        anymore=anymore,
        change=change,
        # a word never spans a space, so the three forms' words are read once each
        # (most clauses have one form: no time, no "used to")
        words=_trigger_words(" ".join(dict.fromkeys((said, base, rewritten)))),
    )


def _blank(text: str, times: list[TimeMention]) -> str:
    """``text`` with each time expression replaced by a comma (an object ends there)."""
    for mention in reversed(times):
        start, end = mention.span
        text = f"{text[:start]} ,{text[end:]}"
    return text


# the condition a sentence opens with before the speaker's clause: "When I travel, I ...",
# "On weeknights I ..."
_CONDITION_LEAD = icase(
    r"^(?P<cond>(?:(?:when|whenever|while|once|unless|if)\s+(?:\w+\s*)[^,]*?|(?:even\s+)?(?:on|for|"
    r"during|at|after|before|in|around|outside)\s+[^,]{2,60}?|(?:weeknights|weekdays|weekends|"
    r"mornings|evenings|[a-z]+days)(?=,?\s+(?:I|we)\s))),?\s+(?=(?:I|we|I'm|we're|I'd|"
    r"I'll|I have|my|our)\b)"
)
# a subordinate condition with no comma runs to the speaker's main clause, past a "my"
# or "our" of its own ("When I play with my kids I prefer ..."), when there is one
_CONDITION_TO_SPEAKER = icase(
    r"^(?P<cond>(?:when|whenever|while|once|unless|if)\s+(?:\w+\s*)(?:(?!\band\b)[^,])*?"
    r"\b(?:my|our)\b(?:(?!\band\b)[^,])*?)\s+(?=(?:I|we|I'm|we're|I'd|I'll)\s)"
)
_SUBORDINATE = icase(r"^(?:when|whenever|while|once|unless|if)\b")


def lead_condition(sentence: str) -> str | None:
    """The condition a tidied sentence opens with, when a first-person clause follows
    ("When I travel", "On weeknights"); ``None`` otherwise."""
    m = _CONDITION_TO_SPEAKER.match(sentence) or _CONDITION_LEAD.match(sentence)
    return m.group("cond").strip() if m else None


def is_subordinate(text: str) -> bool:
    """Whether a clause opens with a subordinator ("When I'm learning a language"): it
    states a condition, not a standing fact of its own."""
    return _SUBORDINATE.match(text) is not None
