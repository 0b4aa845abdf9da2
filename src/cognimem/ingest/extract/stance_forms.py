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
- a judgement of how the thing is for the speaker ("I find X exhausting", "I find X
  intimidating", "X just don't do it for me", "X don't appeal to me", "X does nothing
  for me", "X and I don't get along", "X is a nightmare for me", "X is a turn-off for
  me", "X tends to overwhelm me");
- what the speaker asks to be left out ("I ask them to leave out the onions"), and
  what they always take when it is offered ("if there's a window seat I'll always take
  it": for it);
- a wish that something were not done ("I'd prefer if we didn't do X", "I'd rather we
  didn't X"): against what follows the negation;
- less of it as a goal ("I'm trying to eat less X"), kept down ("I keep X to a
  minimum"), "I'm not a X person", "I'm not the type to X", "Count me out of X", "You
  won't catch me on X", given up years ago ("I gave up X years ago": a habit, not "I
  quit my job"), what the speaker's doctor told them to avoid;
- a choice said by an idiom of wanting ("Give me X any day", "Nothing beats X", "X all
  the way", "X is the way to go for me", "I'm more of a X person", "I keep the X low"),
  and a refusal of everything but one thing ("I won't buy anything except X": only X);
- a thing named first and then again by a pronoun ("Group projects are the worst, I
  avoid them": the object is "Group projects");
- a condition that recurs said with no subordinator ("On a Friday night", "For
  anything under a mile", "Weeknights"), which frames a habit as "when" does, and what
  the speaker goes without under a condition ("Unless ..., I don't have X").
"""

from __future__ import annotations

from cognimem.ingest.extract.choice_objects import all_but
from cognimem.ingest.extract.passing import present_occasion
from cognimem.ingest.extract.patterns import HAS_SPEAKER, PRONOUN_FIRST, THING_FIRST, gated, icase
from cognimem.ingest.extract.verdict_forms import DISLOCATED
from cognimem.text.tokens import tokens

__all__ = [
    "LIST",
    "NEGATIVE_JUDGEMENT",
    "OBJECT_WORDS",
    "ONLY_VERB_TAGS",
    "against_form",
    "antecedent",
    "except_only",
    "for_form",
    "generic_condition",
    "gives_own_reason",
    "is_reason_clause",
    "joined_refusals",
    "not_had",
    "opens_with_its_occasion",
    "restore_subject",
    "taken_when_offered",
    "without_reason_lead",
    "worth",
]

_ADV = r"(?:(?:really|just|also|honestly|genuinely|definitely|absolutely|totally|truly)\s+)*"
DROPPED = icase(
    rf"^{_ADV}(?:(?P<be>(?:not|no)\s+(?:really\s+)?(?:(?:a|an|much of an?)\s+)?(?:big\s+|huge\s+|"
    r"great\s+)?(?:fan\s+of|into|keen\s+on|big\s+on|fond\s+of|interested\s+in|one\s+for)\b)|"
    r"can't\s+(?:stand|bear|abide)\b|(?:dislike|hate|detest|loathe|despise|prefer)\b(?!\s+(?:to\s+"
    r"(?:say|admit|tell)|it\b)))"
)
_REASON_LEAD = icase(
    r"^(?:because\s+of|due\s+to|given|with|thanks\s+to|since|as|being)\s+[^,]{2,60},\s*"
)
# a lead of that form that gives no reason: "As always, ...", "Since then, ...", "With
# that said, ..."
_NO_REASON_LEAD = icase(
    r"^(?:as\s+(?:always|usual|ever|well|such|a\s+rule)|since\s+(?:then|last|\d|[a-z]+day\b)|"
    r"with\s+(?:that|this)\b)"
)
# judging words VADER rates weakly or not at all ("tiring", "grating", "an eyesore")
NEGATIVE_JUDGEMENT = (
    r"(?:boring|tedious|draining|tiring|overwhelming|distracting|unbearable|pointless|"
    r"grating|mind-numbing|tacky|an eyesore|a turn-off|cringe|"
    r"off-putting|awkward|overrated|daunting|a chore|a pain|a drag|a slog|"
    r"too\s+[a-z]+)"
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
    r"incredibly|super|very|kind of|sort of|absolutely)\s+)*" + NEGATIVE_JUDGEMENT + r"\b"
)
# what opens a thing said first: no pronoun or possessive ("my boss doesn't ...")
_NO_PERSON_FIRST = r"^(?!(?:my|our|his|her|their|your|it|this|that|he|she|they|you|me|I)\b)"
_OBJECT_JUDGED = icase(
    rf"{_NO_PERSON_FIRST}"
    r"(?:me\s+and\s+)?(?P<rest>[a-z][\w' ,&-]{1,80}?)(?:\s+and\s+(?:I|me))?\s+(?:(?:just|really|"
    r"honestly|simply)\s+)*(?:(?:don't|doesn't|do not|does not)\s+(?:really\s+)?(?:do\s+(?:it|"
    r"anything|much)\s+for\s+(?:me|us)|mix|get\s+(?:along|on)|appeal\s+to\s+(?:me|us))|"
    r"(?:do|does)\s+(?:absolutely\s+)?"
    r"nothing\s+for\s+(?:me|us)|(?:is|are)\s+(?:(?:really|just|honestly|definitely|totally|"
    r"simply)\s+)+not\s+(?:(?:my|our)\s+(?:thing|scene|style|cup of tea|bag|vibe)|for\s+(?:me|us)|"
    r"(?:me|us)\b(?!\s+\w))"
    r"|(?:is|are)\s+(?:an?\s+)?(?:absolute\s+|total\s+|real\s+|big\s+|major\s+)?(?:nightmare|"
    r"pain|torture|hell|struggle|turn-?off)\s+for\s+(?:me|us)|"
    # a judgement said as what the thing is to the speaker: "X are my idea of hell", "X
    # is a no-no", "X just aren't worth the hassle", "X isn't me"
    r"(?:is|are)\s+(?:(?:just|really|honestly|simply)\s+)*(?:(?:an?|my|the)\s+)?(?:(?:absolute|"
    r"total|real|complete|personal|biggest|number one)\s+)*(?:nightmare|idea of hell|hell|"
    r"torture|no-no|pet hate|pet peeve|bane of my life|worst)|"
    r"(?:isn't|aren't|is not|are not|'s not|'re not)\s+(?:(?:just|really|honestly)\s+)*(?:worth\s+"
    r"(?:the|it)\b|(?:me|us)\b(?!\s+\w))|"
    r"'s\s+(?:(?:just|really)\s+)*(?:an?\s+)?(?:nightmare|no-no|hell|torture)|"
    # "X aren't my favourite", "X is a waste of money", "X feel like a waste of time"
    r"(?:isn't|aren't|is not|are not|'s not|'re not)\s+(?:(?:really|exactly)\s+)?(?:my|our)\s+"
    r"favou?rite|(?:is|are|feels?\s+like|seems?\s+like)\s+(?:(?:just|such|a total|a complete)\s+)*"
    r"(?:a\s+)?waste\s+of\s+"
    r"(?:money|time|space)|"
    # what it does to the speaker: "X gets on my nerves", "X does my head in"
    r"(?:(?:really|just|always)\s+)?(?:tends?\s+to\s+)?(?:gets?\s+on\s+my\s+nerves|(?:does|do)\s+"
    r"my\s+head\s+in|winds?\s+me\s+up|stress(?:es)?\s+me\s+out|wears?\s+me\s+out|puts?\s+me\s+"
    r"off|overwhelms?\s+me)|"
    # "X isn't something I enjoy"
    r"(?:isn't|aren't|is not|are not)\s+(?:really\s+)?(?:something|a thing|anything)\s+(?:that\s+)?"
    r"(?:I|we)\s+(?:(?:really|particularly|ever|would|'d)\s+)*(?:enjoy|like|love|do|want|need|"
    r"care\s+(?:about|for)|go\s+for|choose|fancy))\b"
)
# what is refused said after it, with no verb: "Anything with sequins, no thank you",
# "Heels - not happening"
_REFUSED_AFTER = icase(
    rf"{_NO_PERSON_FIRST}(?P<rest>[a-z]"
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
    r"idea|clue|thanks|need|way|one|doubt|luck|plans?|time|change|beats?|compares|tops)\b).+?)"
    r"\s+for\s+(?:me|us)\b"
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
# less of it, as a goal: "I'm trying to eat less processed meat", "we want to buy fewer X"
_LESS = icase(
    r"^(?:I|we)(?:\s+|(?='))(?:(?:'m|am|are|'re|have been)\s+)?(?:(?:really|also|just|slowly)"
    r"\s+)*(?:try|trying|want|aim|aiming|need|hope|hoping|plan|planning|'d like|would like|"
    r"mean)\s+to\s+"
    r"[a-z]+\s+(?:less|fewer)\s+(?!(?:than|and|often|time|of it|of that)\b)(?P<rest>[a-z].+)"
)
# kept down: "I try to keep painkillers to a minimum", "we keep sugar down"
_KEEP_DOWN = icase(
    r"^(?:I|we)\s+(?:(?:try to|try and|always|really|just|tend to)\s+)*(?:keep|limit)\s+"
    r"(?P<rest>(?!(?:it|that|this|them|you)\b)[a-z].+?)\s+(?:to\s+(?:a|the)\s+(?:bare\s+|"
    r"absolute\s+)?minimum|down|in check)\b"
)
# "I'm not a phone call person", "we're not really beach people"
_NOT_A_PERSON = icase(
    r"^(?:I'm|we're)\s+(?:really\s+|just\s+)?not\s+(?:really\s+)?(?:an?|much of an?)\s+"
    r"(?P<rest>(?!(?:big|huge|great|real|people)\b)[a-z][\w' -]*?)\s+(?:person|people|type)\b"
)
# "I'm not the type to X", "I'm not someone who X"
_NOT_THE_TYPE = icase(
    r"^(?:I'm|we're)\s+(?:really\s+|just\s+)?not\s+(?:really\s+)?(?:the\s+(?:type|kind|sort)\s+"
    r"(?:of\s+(?:person\s+)?)?(?:to|who|that)|someone\s+(?:who|that)|a\s+person\s+who)\s+"
    r"(?P<rest>.+)"
)
# "Count me out of X", "You won't catch me on a X"
_COUNT_ME_OUT = icase(
    r"^(?:count\s+(?:me|us)\s+out\s+(?:of|for|when\s+it\s+comes\s+to)|you(?:'ll|\s+will)?\s+"
    r"(?:won't|will\s+never|'ll\s+never|never)\s+(?:ever\s+)?(?:catch|see|find)\s+(?:me|us)(?:\s+(?:in|on|at|near|inside|with))?)\s+"
    r"(?P<rest>.+)"
)
# given up some years ago, a habit (no determiner: not "I quit my job"): "I gave up
# gambling years ago", "I quit using peat a few years back"
_GAVE_UP = icase(
    r"^(?:I|we)\s+(?:(?:finally|completely|totally)\s+)?(?:gave\s+up|quit|stopped|cut\s+out|"
    r"kicked)\s+(?P<rest>(?!(?:my|our|his|her|their|the|a|an|at|by|in|for|to|it|that|this|them|"
    r"him|smoking\s+weed)\b)[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}?)\s+(?:(?:a\s+few|several|many|"
    r"some|two|three|four|five|ten)\s+)?(?:years?|months?|ages|decades?)\s+(?:ago|back)\b"
)
# what the speaker's doctor told them to keep off: "My doctor told me to avoid X"
_TOLD_TO_AVOID = icase(
    r"^(?:my|our)\s+(?:doctor|gp|dentist|allergist|therapist|consultant|physio|dietitian|"
    r"nurse)\s+(?:has\s+)?(?:told|advised|asked|wants)\s+(?:me|us)\s+(?:to\s+)?(?:avoid|stay\s+off|"
    r"keep\s+off|cut\s+out|give\s+up|stop|steer\s+clear\s+of|cut\s+down\s+on|not\s+to\s+"
    r"(?:eat|drink|have|take|use))\s+(?P<rest>.+)"
)
_FORMS = (
    _LESS,
    _NOT_THE_TYPE,
    _COUNT_ME_OUT,
    _GAVE_UP,
    _TOLD_TO_AVOID,
    _KEEP_DOWN,
    _NOT_A_PERSON,
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
# what an exclusive choice is about by its verb ("I only buy ..." is shopping)
ONLY_VERB_TAGS = {
    "buy": "shopping",
    "shop": "shopping",
    "eat": "food",
    "drink": "food",
    "fly": "travel",
    "wear": "shopping",
    "use": "shopping",
}
_PLEASE = icase(r"\b(?:please|pls|suggest|recommend|suggesting|recommending)\b")
# a reason said after the stance, as its own clause: "..., since the street light shines in"
_GIVES_REASON = gated(
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


# a choice said by an idiom of wanting: "Give me a proper roast any day", "I'm more of a
# city break person than a beach person", "I keep the lawn long for the wildlife" (a
# state the speaker keeps a thing in)
_FOR_FORMS = (
    # "Nothing beats X", "X all the way for me", "X is the way to go for me"
    icase(r"^(?:nothing|you\s+can't)\s+(?:beats?|tops|compares\s+to)\s+(?P<rest>.+)"),
    icase(
        rf"{THING_FIRST}(?:,?\s+all\s+the\s+way(?:\s+for\s+(?:me|us))?\s*[.!]*$|\s+(?:is|are)\s+"
        r"(?:(?:always|definitely)\s+)?the\s+way\s+to\s+go\b)"
    ),
    icase(r"^give\s+(?:me|us)\s+(?P<rest>.+?)\s+(?:any\s*day|every\s+time|any\s*time)\b"),
    icase(
        r"^(?:I'm|we're)\s+(?:much\s+|definitely\s+|far\s+)?more\s+of\s+an?\s+(?P<rest>.+?)\s+"
        r"(?:person|people|type|fan)\b"
    ),
    icase(
        r"^(?:I|we)\s+(?:(?:always|usually|try to|like to|tend to)\s+)*(?P<rest>keep\s+(?:the|my|"
        r"our|all|every)\s+[\w' -]+?\s+(?:off|on|low|high|long|short|cool|warm|cold|free|clear|"
        r"closed|open|locked|tidy|clean|quiet|dark|private|simple|separate)\b.*)"
    ),
)
# a refusal of everything but one thing is a choice of it: "I won't buy anything except
# natural fibres" is "only buy natural fibres"
_EXCEPT = icase(
    r"^(?P<verb>(?:[a-z]+\s+){0,2}?)(?:anything|any\s+[a-z]+|everything)\s+(?:except|but|other\s+"
    r"than|apart\s+from|besides)\s+(?P<rest>.+)"
)


# an object's length in words (a list of things may run longer)
OBJECT_WORDS = 14
LIST_WORDS = 24
LIST = icase(r",\s+[^,]+,?\s+(?:or|and|nor)\s+\S")
# a sentence that opens with the one occasion it is about: "For this trip, ...", "Just
# for tonight, ...", "This time, ..."
_OCCASION_LEAD = icase(
    r"^(?:just\s+)?(?:(?:for|on|during)\s+(?:this|tonight's|today's|tomorrow's)\s+[a-z]+|this\s+"
    r"time|(?:for\s+)?(?:tonight|today|tomorrow))\s*,"
)


def opens_with_its_occasion(evidence: str) -> bool:
    """Whether a sentence opens with the one occasion it is about ("For this trip,
    please avoid hostels"): what it asks is no standing stance."""
    return _OCCASION_LEAD.match(evidence.strip()) is not None


# ... and of a clause of result ("music so loud you can't talk")
_GENERIC_YOU = icase(r"\b(?:where|that|which|who|(?:so|too)\s+[a-z]+(?:\s+that)?)\s+you\b")
# (a hyphenated word is none: "one-pot dinners", "so-called experts")
_POINTER_HEAD = icase(r"^(?:it|that|this|these|those|them|you|your|him|her|one|so|too)\b(?!-)")


def worth(value: str) -> bool:
    """Whether an object names something: not empty, not a pointer back into the
    conversation ("that", "it", "your idea"), not a whole paragraph."""
    words = tokens(value)
    # a list of things may run longer ("anything with X, Y, Z or W in it")
    limit = LIST_WORDS if LIST.search(value) else OBJECT_WORDS
    if not words or len(words) > limit:
        return False
    if _POINTER_HEAD.match(value) and len(words) <= 2:
        return False
    if present_occasion(value):
        return False  # "I'm not doing anything then": one occasion, not a stance
    # "you" as the subject of a relative clause is anyone ("loud bars where you can't
    # hear each other"); anywhere else it points at the listener ("your idea")
    return not {"you", "your", "yours"} & set(tokens(_GENERIC_YOU.sub(" ", value)))


# what the speaker goes without under a condition ("Unless it's a special occasion, I
# don't have dessert")
_NOT_HAD = icase(
    r"^(?:I|we)\s+(?:don't|never)\s+(?:have|eat|drink)\s+(?P<rest>(?!(?:to|a|an|the|it|time|enough|much|"
    r"that|this|any\s+(?:idea|time|money))\b)[a-z].+)"
)


def not_had(main: str) -> str | None:
    """What the speaker goes without under a condition ("I don't have dessert")."""
    m = _NOT_HAD.match(main)
    return m.group("rest") if m else None


def for_form(said: str) -> str | None:
    """The object of a choice said by an idiom of wanting (see :data:`_FOR_FORMS`)."""
    for pattern in _FOR_FORMS:
        m = pattern.match(said)
        if m is not None:
            return m.group("rest")
    return None


def except_only(rest: str) -> str | None:
    """What a refusal of everything else chooses ("buy anything except X" -> "buy X"),
    or ``None``."""
    m = _EXCEPT.match(rest.strip())
    return f"{m.group('verb')}{m.group('rest')}" if m else None


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
    if (but := all_but(said)) is not None:  # "I'll eat anything except X"
        return but, False
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
        if pattern in (_OBJECT_JUDGED, _REFUSED_AFTER) and HAS_SPEAKER.search(rest):
            continue
        return rest, pattern is _ASKED_NOT
    return None


def taken_when_offered(said: str) -> str | None:
    """What the speaker always chooses when it is on offer ("if there's an oral option
    I'll always take that"), or ``None``."""
    m = _TAKEN_WHEN_OFFERED.search(said)
    return m.group("rest") if m else None


# a condition that recurs, said with no subordinator: "On a Friday night", "For weekend
# trips", "On work nights", "For anything over an hour" (not "On Monday": one occasion)
_GENERIC_CONDITION = icase(
    r"^(?:weeknights|weekdays|weekends|mornings|evenings|nights|[a-z]+days)$|"
    r"^(?:on|for|at|in|during|after|before)\s+(?:(?:a|an|any|anything|every|each)\b|(?:[\w-]+"
    r"\s+){0,3}(?!(?:this|his|its|us|was|is|yes|plus)$)[a-z]*[^s'\W]s$)"
)
# the thing a sentence opens with, named again by a pronoun: "Group projects are the
# worst, I avoid them", "Anything made of polyester makes me sweat, so I avoid it"
_ANTECEDENT = icase(
    rf"^(?!(?:{PRONOUN_FIRST})\b)"
    r"(?P<np>[a-z][\w' -]{2,60}?)\s+(?:(?:is|are|'s|'re)\s+(?:just\s+|"
    r"always\s+)?(?:the\s+worst|awful|terrible|horrible|too\s+[a-z]+|so\s+[a-z]+|a\s+"
    r"nightmare)|(?:makes?|gives?)\s+me\b|(?:bores?|upsets?|bothers?)\s+me\b)"
)
_BARE_POINTER = icase(r"^(?:(?:all\s+)?of\s+)?(?:it|them|those|these|that)$")


def generic_condition(condition: str) -> bool:
    """Whether a condition said with no subordinator recurs ("On weeknights", "For
    anything over an hour"), so that it frames a habit as "when" does."""
    return _GENERIC_CONDITION.match(condition) is not None


def antecedent(what: str, evidence: str) -> str:
    """``what`` or, when it is only a pronoun, the thing its sentence opened with
    ("Group projects are the worst, I avoid them" -> "Group projects")."""
    if _BARE_POINTER.match(what) is None:
        return what
    m = _ANTECEDENT.match(evidence.strip()) or DISLOCATED.match(evidence.strip())
    return m.group("np") if m else what


def is_reason_clause(said: str, evidence: str) -> bool:
    """Whether the clause ``said`` is the reason of its sentence ``evidence`` ("I can
    only do weekends because *I work shifts*"), not the rule it gives a reason for."""
    at = evidence.lower().find(said[:16].lower())
    return at > 0 and _REASON_BEFORE.search(evidence[:at]) is not None


def gives_own_reason(text: str, values: list[str]) -> bool:
    """Whether the sentence ``text`` gives a reason for the stance read as one of
    ``values``: a reason said first and set off by a comma ("Given my motion sickness,
    I'd never ..."; not "As always, ..."), or a reason clause after it with no other
    clause between them ("I usually play X, but I tried Y this time since ..." gives no
    reason for X)."""
    lead = _REASON_LEAD.match(text)
    if lead is not None and not _NO_REASON_LEAD.match(text):
        low = text.lower()
        return any(low.find(value[:12].lower(), lead.end()) >= 0 for value in values)
    reason = _GIVES_REASON.search(text)
    if reason is None:
        return False
    low = text.lower()
    return any(
        0 <= (at := low.find(value[:12].lower())) < reason.start()
        and not _OTHER_CLAUSE.search(text, at, reason.start())
        for value in values
    )
