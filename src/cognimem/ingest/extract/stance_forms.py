"""More voices of a stance, read for :mod:`.detect_choices`: the forms its verb
patterns cannot take, each by its grammar, none by a topic word.

- the subject left out, as chat often does ("Not a fan of X.", "Can't stand X"): only
  forms that cannot be an order to the listener ("Don't buy X" is one), with "I" or
  "I'm" put back;
- a reason said first, before an object-first stance ("Because of my back, long drives
  are out of the question");
- a dislike held for long, said in the perfect or with "always" / "never" ("I've always
  hated X", "I've never cared for X"; "I've never liked X" stays a preference, as
  ``extraction_labelled.jsonl`` labels it);
- a judgement of how the thing is for the speaker ("I find X exhausting", "X just don't
  do it for me", "X does nothing for me", "X and I don't get along", "X is a nightmare
  for me");
- what the speaker asks to be left out ("I ask them to leave out the onions"), and
  what they always take when it is offered ("if there's a window seat I'll always take
  it": for it);
- a wish that something were not done ("I'd prefer if we didn't do X", "I'd rather we
  didn't X"): against what follows the negation.
"""

from __future__ import annotations

from cognimem.ingest.extract.patterns import icase

__all__ = [
    "against_form",
    "gives_own_reason",
    "is_reason_clause",
    "joined_refusals",
    "restore_subject",
    "taken_when_offered",
    "without_reason_lead",
]

_ADV = r"(?:(?:really|just|also|honestly|genuinely|definitely|absolutely|totally|truly)\s+)*"
DROPPED = icase(
    rf"^{_ADV}(?:(?P<be>(?:not|no)\s+(?:really\s+)?(?:(?:a|an|much of an?)\s+)?(?:big\s+|huge\s+|"
    r"great\s+)?(?:fan\s+of|into|keen\s+on|big\s+on|fond\s+of|interested\s+in|one\s+for)\b)|"
    r"can't\s+(?:stand|bear|abide)\b|(?:dislike|hate|detest|loathe|despise|prefer)\b(?!\s+(?:to\s+"
    r"(?:say|admit|tell)|it\b)))"
)
_REASON_LEAD = icase(r"^(?:because\s+of|due\s+to|given|with|thanks\s+to|since|as)\s+[^,]{2,60},\s*")
_NEGATIVE_JUDGEMENT = (
    r"(?:boring|dull|tedious|exhausting|draining|tiring|stressful|annoying|irritating|"
    r"overwhelming|distracting|uncomfortable|unbearable|pointless|off-putting|awkward|"
    r"depressing|overrated|miserable|a chore|a pain|a drag|a slog|too\s+[a-z]+)"
)
# "I've always hated X", "I've never cared for X"
_LONG_HELD = icase(
    r"^(?:I|we)\s+(?:have\s+)?(?:never\s+(?:(?:really|much|actually)\s+)*(?:cared\s+for|been\s+(?:a\s+(?:big\s+)?fan\s+of|into|keen\s+on|fond\s+of))|always\s+"
    r"(?:(?:really|kind of|sort of)\s+)*(?:hated|disliked|detested|loathed|despised|avoided|"
    r"steered\s+clear\s+of|stayed\s+away\s+from))\s+(?P<rest>.+)"
)
_FIND = icase(
    r"^(?:I|we)\s+(?:(?:really|just|honestly|always|generally|usually)\s+)*find\s+"
    r"(?P<rest>(?!(?:it|that|this|them|him|her|you)\b).+?)\s+(?:(?:really|so|pretty|quite|a bit|"
    r"incredibly|super|very|kind of|sort of|absolutely)\s+)*" + _NEGATIVE_JUDGEMENT + r"\b"
)
_OBJECT_JUDGED = icase(
    r"^(?!(?:my|our|his|her|their|your|it|this|that|he|she|they|you|me|I)\b)"
    r"(?:me\s+and\s+)?(?P<rest>[a-z][\w' ,&-]{1,80}?)(?:\s+and\s+(?:I|me))?\s+(?:(?:just|really|"
    r"honestly|simply)\s+)*(?:(?:don't|doesn't|do not|does not)\s+(?:really\s+)?(?:do\s+(?:it|"
    r"anything|much)\s+for\s+(?:me|us)|mix|get\s+(?:along|on))|(?:do|does)\s+(?:absolutely\s+)?"
    r"nothing\s+for\s+(?:me|us)|(?:is|are)\s+(?:(?:really|just|honestly|definitely|totally|"
    r"simply)\s+)+not\s+(?:(?:my|our)\s+(?:thing|scene|style|cup of tea|bag|vibe)|for\s+(?:me|us))"
    r"|(?:is|are)\s+(?:an?\s+)?(?:absolute\s+|total\s+|real\s+)?(?:nightmare|pain|torture|"
    r"hell|struggle)\s+for\s+(?:me|us)|"
    # a judgement said as what the thing is to the speaker: "X are my idea of hell", "X
    # is a no-no", "X just aren't worth the hassle", "X isn't me"
    r"(?:is|are)\s+(?:(?:just|really|honestly|simply)\s+)*(?:(?:an?|my|the)\s+)?(?:(?:absolute|"
    r"total|real|complete|personal|biggest|number one)\s+)*(?:nightmare|idea of hell|hell|"
    r"torture|no-no|pet hate|pet peeve|bane of my life|worst)|"
    r"(?:isn't|aren't|is not|are not|'s not|'re not)\s+(?:(?:just|really|honestly)\s+)*(?:worth\s+"
    r"(?:the|it)\b|(?:me|us)\b(?!\s+\w))|"
    r"'s\s+(?:(?:just|really)\s+)*(?:an?\s+)?(?:nightmare|no-no|hell|torture)|"
    # "X aren't my favourite", "X is a waste of money"
    r"(?:isn't|aren't|is not|are not|'s not|'re not)\s+(?:(?:really|exactly)\s+)?(?:my|our)\s+"
    r"favou?rite|(?:is|are)\s+(?:(?:just|such|a total|a complete)\s+)*(?:a\s+)?waste\s+of\s+"
    r"(?:money|time|space)|"
    # what it does to the speaker: "X gets on my nerves", "X does my head in"
    r"(?:(?:really|just|always)\s+)?(?:gets?\s+on\s+my\s+nerves|(?:does|do)\s+my\s+head\s+in|"
    r"winds?\s+me\s+up|stress(?:es)?\s+me\s+out|wears?\s+me\s+out|puts?\s+me\s+off)|"
    # "X isn't something I enjoy"
    r"(?:isn't|aren't|is not|are not)\s+(?:really\s+)?(?:something|a thing|anything)\s+(?:that\s+)?"
    r"(?:I|we)\s+(?:(?:really|particularly|ever|would|'d)\s+)*(?:enjoy|like|love|do|want|need|"
    r"care\s+(?:about|for)|go\s+for|choose|fancy))\b"
)
# what is refused said after it, with no verb: "Anything with sequins, no thank you",
# "Heels - not happening"
_REFUSED_AFTER = icase(
    r"^(?!(?:my|our|his|her|their|your|it|this|that|he|she|they|you|me|I)\b)(?P<rest>[a-z]"
    r"[\w' &-]{1,80}?)\s*(?:,|-|—|:)\s*(?:no thanks|no thank you|not for me|never again|not "
    r"happening|no way|hard pass|pass)\s*[.!]*$"
)
# "I'd prefer if we didn't do sleepovers", "I'd rather we didn't eat out"
_PREFER_NOT_DONE = icase(
    r"^(?:I|we)(?:'d|\s+would)\s+(?:much\s+|really\s+)?(?:prefer|rather|like\s+it)\s+"
    r"(?:it\s+)?(?:if|that)?\s*(?:we|I|you|people|they|the\s+\w+)\s+(?:didn't|did not|don't|"
    r"do not|never|weren't|wouldn't)\s+(?P<rest>.+)"
)
# a standing "no" said of the speaker, with no verb: "No horror films for me", "Nothing
# too spicy for us, thanks", "None of that X for me"
_NONE_FOR_ME = icase(
    r"^(?P<no>no|nothing|none\s+of)\s+(?:more\s+)?(?P<rest>(?!(?:but|worries|problem|rush|pressure|"
    r"idea|clue|thanks|need|way|one|doubt|luck|plans?|time|change)\b).+?)\s+for\s+(?:me|us)\b"
    r"(?:[\s,]*(?:thanks|thank you|please|ta|cheers))?\s*[.!]*$"
)
# a request to the listener against something: "Please avoid recommending X", "please
# skip X", "Don't suggest X" (an order about the answers the speaker wants)
_ASKED_NOT = icase(
    r"^(?:please[\s,]+)?(?:(?:don't|do not|never)\s+(?:ever\s+)?(?:suggest|recommend|book|"
    r"send|offer|give)(?:\s+me)?|(?:please[\s,]+)?(?:avoid|skip|leave out)(?:\s+(?:suggesting|"
    r"recommending|booking|offering))?)\s+(?P<rest>.+)"
)
# "I can live without X", "I tend to give X a miss", "I give X a wide berth"
_DO_WITHOUT = icase(
    r"^(?:I|we)\s+(?:(?:really|honestly|happily|usually|always|tend to|just)\s+)*(?:can|could)\s+"
    r"(?:easily\s+|happily\s+|totally\s+)?(?:live|do)\s+without\s+(?P<rest>.+)"
)
_GIVE_A_MISS = icase(
    r"^(?:I|we)\s+(?:(?:really|usually|always|generally|tend to|try to|'d rather|prefer to|"
    r"'ll|will)\s+)*give\s+(?P<rest>(?!(?:it|that|this|them|him|her|you)\b).+?)\s+a\s+"
    r"(?:miss|wide berth)\b"
)
# what the speaker asks to be left out: "I ask them to leave out the onions", "we always
# ask for no ice"
_ASK_LEFT_OUT = icase(
    r"^(?:I|we)\s+(?:(?:always|usually|just|normally|generally)\s+)*ask\s+(?:(?:them|the\s+\w+|"
    r"people|the\s+\w+\s+\w+)\s+)?(?:to\s+(?:leave\s+out|hold|skip|remove|go\s+easy\s+on)|for\s+"
    r"(?:no|it\s+without|them\s+without))\s+(?P<rest>.+)"
)
# a choice made whenever it is offered: "if there's a vegetarian option I'll always take it"
_TAKEN_WHEN_OFFERED = icase(
    r"\bif\s+there(?:'s|\s+is|\s+are|'re)\s+(?P<rest>(?:an?|any|some)\s+[\w' -]+?),?\s+(?:I|we)"
    r"(?:'ll|\s+will|'d|\s+would)?\s+(?:(?:always|usually|every\s+time|invariably)\s+)+(?:take|"
    r"choose|pick|go\s+for|go\s+with|order|get|use|book)\s+(?:that|it|them|one)\b"
)
_FORMS = (
    _ASK_LEFT_OUT,
    _LONG_HELD,
    _FIND,
    _OBJECT_JUDGED,
    _REFUSED_AFTER,
    _PREFER_NOT_DONE,
    _DO_WITHOUT,
    _GIVE_A_MISS,
    _ASKED_NOT,
)
_PLEASE = icase(r"\b(?:please|pls|suggest|recommend|suggesting|recommending)\b")
_HAS_SUBJECT = icase(r"\b(?:I|we|I'm|we're)\b")
# a reason said after the stance, as its own clause: "..., since the street light shines in"
_GIVES_REASON = icase(
    r"\s(?:because|cause|cuz|due to)\b|\ssince\s+(?:I|we|my|our|it|the|they|there)\b|"
    r",\s*as\s+(?:I|we|my|our|it)\b"
)
_OTHER_CLAUSE = icase(r",?\s+(?:but|and|then|though|although)\s+")
_REASON_BEFORE = icase(r"\b(?:because|since|cause|cuz|as)[\s,]*$")


# "Cruises? No thanks.": a thing named as a question, then refused in the next sentence
_ASKED_THEN_REFUSED = icase(
    r"(?:^|(?<=[.!?] ))(?P<thing>(?!(?:want|do|does|are|is|can|could|would|will|shall|should|"
    r"how|what|any|fancy|need|some|more|another|seconds)\b)[a-z][\w'-]*(?:\s+[\w'-]+){0,3})\?\s+"
    r"(?=(?:no thanks|no thank you|not for me|never again|no way|hard pass|pass)\b)"
)


def joined_refusals(text: str) -> str:
    """``text`` with a thing named as a question and refused in the next sentence said
    as one ("Cruises? No thanks." is "Cruises, no thanks.")."""
    if "?" not in text:
        return text
    return _ASKED_THEN_REFUSED.sub(lambda m: f"{m.group('thing')}, ", text)


def restore_subject(said: str) -> str:
    """``said`` with the "I" / "I'm" a stance left out put back ("Not a fan of X" is "I
    am not a fan of X"); unchanged when it has its subject or is no such stance."""
    dropped = DROPPED.match(said)
    if dropped is None:
        return said
    return f"{'I am' if dropped.group('be') else 'I'} {said}"


def without_reason_lead(said: str) -> str:
    """``said`` without a reason said first and set off by a comma ("Because of my back,
    ..."), so that an object-first stance after it is read."""
    lead = _REASON_LEAD.match(said)
    return said[lead.end() :] if lead else said


def against_form(said: str) -> tuple[str, bool] | None:
    """The object of a stance against it said in one of the voices of the module
    docstring, and whether it is a request (a "no" with no verb, an order to the
    listener); ``None`` when it is said in none."""
    none = _NONE_FOR_ME.match(said)
    if none is not None:
        rest = none.group("rest")
        return (f"anything {rest}" if none.group("no").lower() == "nothing" else rest), True
    for pattern in _FORMS:
        m = pattern.match(said)
        if m is None:
            continue
        if pattern is _ASKED_NOT and not _PLEASE.search(said):
            continue  # "Skip the intro" is an order for now, not a standing rule
        rest = m.group("rest")
        if pattern in (_OBJECT_JUDGED, _REFUSED_AFTER) and _HAS_SUBJECT.search(rest):
            continue
        return rest, pattern is _ASKED_NOT
    return None


def taken_when_offered(said: str) -> str | None:
    """What the speaker always chooses when it is on offer ("if there's an oral option
    I'll always take that"), or ``None``."""
    m = _TAKEN_WHEN_OFFERED.search(said)
    return m.group("rest") if m else None


def is_reason_clause(said: str, evidence: str) -> bool:
    """Whether the clause ``said`` is the reason of its sentence ``evidence`` ("I can
    only do weekends because *I work shifts*"), not the rule it gives a reason for."""
    at = evidence.lower().find(said[:16].lower())
    return at > 0 and _REASON_BEFORE.search(evidence[:at]) is not None


def gives_own_reason(text: str, values: list[str]) -> bool:
    """Whether the sentence ``text`` gives a reason for the stance read as one of
    ``values``: a reason clause after it with no other clause between them ("I usually
    play X, but I tried Y this time since ..." gives no reason for X)."""
    reason = _GIVES_REASON.search(text)
    if reason is None:
        return False
    low = text.lower()
    return any(
        0 <= (at := low.find(value[:12].lower())) < reason.start()
        and not _OTHER_CLAUSE.search(text, at, reason.start())
        for value in values
    )
