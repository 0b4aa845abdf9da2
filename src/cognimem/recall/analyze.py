"""Query analysis: what a query is after (intent, constraint dimensions, whether it asks
for a decision), its terms, the names it mentions and the period it asks about.

Rules decide first (microseconds); :class:`Classification` is also what the optional
LLM classifier (:mod:`cognimem.recall.classify`) answers when the rules are unsure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta, tzinfo
from enum import StrEnum
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from cognimem.errors import InvalidInput
from cognimem.models.knowledge import FactCategory
from cognimem.models.wire import FIRST_YEAR
from cognimem.recall.fact_time import without_times
from cognimem.recall.question_acts import AROUND_EVENT, requests
from cognimem.text.mention import RECENT
from cognimem.text.stopwords import STOP_WORDS as STOP_WORDS  # the read path's, too
from cognimem.text.temporal import TimeMention, find_times
from cognimem.text.tokens import query_terms as query_terms  # the read path's, too
from cognimem.text.tokens import word_key as word_key


class Intent(StrEnum):
    """What a query is after; it decides which memory layers a read asks."""

    PREFERENCE = "preference"  # likes, dislikes, favourites
    IDENTITY = "identity"  # who the user is: name, age, job, home, family
    TEMPORAL = "temporal"  # when something happened, or what happened in a period
    MULTI_HOP = "multi_hop"  # joins several memories (relations between people/things)
    CONSTRAINT_CHECK = "constraint_check"  # "can I ...", "is it ok to ..."
    DECISION = "decision"  # asks for a recommendation or a choice
    GENERAL = "general"


@dataclass(frozen=True)
class Classification:
    """An intent reading of a query: by the rules, or by the LLM classifier."""

    intent: Intent
    # constraint dimensions the answer must respect (policy, value, goal, state, causal)
    categories: tuple[FactCategory, ...] = ()
    decision: bool = False
    unsure: bool = False  # the rules found no clear signal (the LLM may be asked)
    source: str = "rules"  # "rules" | "llm"
    reasons: tuple[str, ...] = field(default_factory=tuple)


_PAST = re.compile(
    r"\b(?:did|was|were|happened|had|went|got|made|saw|met|said|told|ago|yesterday|last)\b",
    re.IGNORECASE,
)


def asks_about_past(query: str) -> bool:
    """Whether the query is about what already happened ("what did I do this week?")."""
    return bool(_PAST.search(query))


def query_time_range(
    query: str, reference_time: datetime, timezone: str | None = None, *, up_to: bool = False
) -> tuple[datetime, datetime] | None:
    """The period a query asks about ("what did I do last week?"), as a UTC interval
    ``[start, end)`` resolved in the caller's ``timezone`` against ``reference_time``
    ("yesterday" in Tokyo is not yesterday in UTC); ``None`` when it names no time.

    Several mentions: the span from the earliest start to the latest end. With
    ``up_to``, a time said after "as of", "by", "until" or "before" ends the period
    and opens its start: "how many pets did I have as of May 2025?" reads everything
    up to the end of May (before May: up to its start).
    """
    zone = zone_of(timezone)
    # the temporal resolver does calendar arithmetic on the clock it is given: give it
    # the user's wall clock, then read its answers back as that zone's times
    wall = reference_time.astimezone(zone).replace(tzinfo=UTC)
    # "recently" in a question is no period to keep to: the answer may be older
    named = [m for m in find_times(query, wall) if m.granularity != RECENT]
    mentions = _from_named_dates(query, named)
    if not mentions:
        return None
    starts = [m.start for m in mentions] + [m.anchor[0] for m in mentions if m.anchor]
    ends = [m.end for m in mentions] + [m.anchor[1] for m in mentions if m.anchor]
    start = min(starts).replace(tzinfo=zone).astimezone(UTC)
    end = max(ends).replace(tzinfo=zone).astimezone(UTC)
    if up_to:
        last = mentions[-1]
        # the resolver may take "of" ("as of May"), "before" or "until" into the words
        lead = _LEAD.match(last.text)
        said = _UP_TO.search(query[: last.span[0]] + (lead.group(0) if lead else ""))
        if said is not None:
            ends_at = last.start if said.group(0).lower().startswith("before") else last.end
            return OPEN_START, ends_at.replace(tzinfo=zone).astimezone(UTC)
    return start, end


# the start of a period a question leaves open ("as of May"): before any memory
OPEN_START = datetime(FIRST_YEAR, 1, 1, tzinfo=UTC)
_NEAR = re.compile(r"^[\s,]*(?:\S+[\s,]+){0,4}?(?:on|as\s+of)?[\s,]*$", re.IGNORECASE)


def _from_named_dates(query: str, mentions: list[TimeMention]) -> list[TimeMention]:
    """A question asked from a date it names counts its relative times from that date:
    "which film did she see last Friday, on 13 March?" means the Friday before 13
    March; "what did he fret over last week, as noted on 9 October?" the week before
    9 October. A relative mention followed within a few words by a date (not itself
    relative) is read again with that date as the reference."""
    out = list(mentions)
    for i, mention in enumerate(mentions[:-1]):
        date_ = mentions[i + 1]
        gap = query[mention.span[1] : date_.span[0]]
        if not mention.relative or date_.relative or not _NEAR.match(gap):
            continue
        again = find_times(mention.text, date_.start + timedelta(hours=12))
        if len(again) == 1:
            out[i] = replace(again[0], span=mention.span, anchor=(date_.start, date_.end))
    return out


# the IANA names a read accepts (this machine's time zone database, and "UTC")
TIMEZONES: tuple[str, ...] = tuple(sorted(available_timezones() | {"UTC"}))


def zone_of(name: str | None) -> tzinfo:
    if name is None or name.upper() == "UTC":
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise InvalidInput(f"unknown timezone {name!r}", field="timezone") from exc


# -- intent rules ---------------------------------------------------------------------
# Each rule is a pattern and what it says; the first intent rule that matches wins
# (most specific first). Dimension rules add constraint categories independently.

_CHECK = re.compile(
    r"(?<!how )(?<!what )(?<!which )(?<!where )\b(?:should|shall|can|could|may|must)\s+"
    r"(?:i|we)\b|"
    r"\bis\s+it\s+(?:ok|okay|safe|fine|alright|allowed|wise|a good idea|bad)\b|"
    r"\bam\s+i\s+allowed\b|\bwould\s+it\s+be\s+"
    r"(?:ok|okay|fine|safe|wise)\b|\b(?:ok|okay|safe)\s+(?:for\s+me\s+)?to\b",
    re.IGNORECASE,
)
_DECIDE = re.compile(
    r"\b(?:recommend|suggest|advise|advice|choose|pick|plan|book|buy|order|reserve|"
    r"schedule|ideas?|options?|alternatives?|(?:best|quickest|fastest|cheapest|easiest|"
    r"simplest)\s+(?:way|place|option)s?)\b|\bwhich\s+(?:[\w'-]+\s+){0,2}?(?:should|would|"
    r"is\s+better)\b|\bwhich\s+(?:\w+\s+)?to\b|\bwhat\s+(?:should|to|can)\b|\bwhere\s+"
    r"(?:should|to|can)\b|\bhelp\s+me\b|\bwhich\b.*\b(?:friendly|better|best|cheaper|"
    r"suitable|good)\b|"
    # a request to act for the user ("find me a hotel", "set up a call", "how should I
    # handle ..."): the user's constraints bind what comes back as much as in a choice
    r"^(?:(?:can|could|would)\s+you\s+|please\s+)?(?:find|book|set\s+up|arrange|draft|"
    r"write|give\s+me|put\s+together|make\s+me|remind\s+me|compare|get\s+me|organi[sz]e|"
    r"prepare|list|set\s+an?|fill\s+(?:out|in))\b|\bhow\s+should\s+(?:i|we)\b|"
    r"\b(?:any\s+)?thoughts\s*\?|"
    # asking what is good, or worth it, or goes with something ("what's a good recipe
    # for ...", "what's worth streaming", "is it right for me?", "what shoes go with
    # ...", "what would help?", "any series to start?"): a recommendation in other words
    r"\bwhat(?:'s|\s+is|\s+are)\s+(?:a|an|the|some)\s+(?:good|great|nice|quick|easy|"
    r"cheap|best|better)\b|\bworth\s+(?:\w+ing|it)\b|\b(?:right|suitable)\s+for\s+"
    r"(?:me|us)\b|\bwhat\s+(?:[\w'-]+\s+){0,2}?(?:go(?:es)?\s+(?:well\s+)?with|(?:would|"
    r"might)\s+(?:help|make|suit))\b|^any\s+[\w'-]+(?:\s+[\w'-]+)?\s+(?:to|for)\b",
    re.IGNORECASE,
)
# asking how to do something oneself ("how can I get rid of ...", "how do we get home
# from ...", "what could I cook ..."): advice on what to do, which the classifier's prompt
# counts as a decision, and the user's constraints bind it as much as a choice. It makes
# the request decision-like without making its intent a decision ("how can I reach my
# savings goal?" still asks about a goal)
_ADVICE = re.compile(
    r"\bhow\s+(?:can|could|do)\s+(?:i|we|my\s+\w+)\b|\bwhat\s+could\s+(?:i|we)\b",
    re.IGNORECASE,
)
_PREFERENCE = re.compile(
    r"\b(?:favou?rite|prefers?|preferred|preference|likes?|loves?|enjoys?|hates?|"
    r"dislikes?|fan\s+of|into|taste|fond\s+of)\b",
    re.IGNORECASE,
)
_IDENTITY = re.compile(
    r"\bwho\s+(?:am\s+i|is|are)\b|\b(?:my|his|her|their)\s+(?:name|age|birthday|job|"
    r"work|occupation|profession|family|nationality|background|identity|pronouns)\b|"
    r"\bhow\s+old\b|\bwhere\s+(?:do|does|did)\s+\w+\s+(?:live|work|come\s+from|grow\s+up)\b|"
    r"\bwhat\s+(?:do|does)\s+\w+\s+do\s+for\s+(?:a\s+)?(?:living|work)\b|\bidentity\b|"
    r"\brelationship\s+status\b",
    re.IGNORECASE,
)
_TEMPORAL = re.compile(
    r"\bwhen\b|\bwhat\s+(?:time|date|day|year|month)\b|\bwhich\s+(?:year|month|day|date)\b|"
    r"\bhow\s+long\s+(?:ago|since)\b|\bsince\s+when\b",
    re.IGNORECASE,
)
# "how long did it take her to ...", "how much time did he need ...": a span of time
_SPAN = re.compile(r"\bhow\s+(?:long|much\s+time)\b", re.IGNORECASE)
_MULTI_HOP = re.compile(
    r"\b(?:both|in\s+common|together|compare|comparison|relationship\s+between|"
    r"how\s+many|what\s+kinds?\s+of|what\s+(?:activities|things|events|places)|"
    r"all\s+the)\b|\b\w+'s\s+(?:sister|brother|mother|mom|father|dad|friend|partner|"
    r"husband|wife|son|daughter|kids?|children|colleague|boss)\b",
    re.IGNORECASE,
)


class EventForm(StrEnum):
    """How a question reads several events of one kind (``event_question``)."""

    COUNT = "count"  # "how many pets did I have as of May?", "how many times ..."
    ORDER = "order"  # "which did I do first, X or Y?", "in what order ..."
    BETWEEN = "between"  # "how long between X and Y?", "how long after X did Y?"


_BETWEEN_EVENTS = re.compile(
    r"\bhow\s+(?:long|much\s+time|many\s+(?:days|weeks|months|years))\b.*"
    r"\b(?:between|after|before|until)\b",
    re.IGNORECASE,
)
_ORDER_EVENTS = re.compile(
    r"\b(?:first|earlier|sooner)\b.*\bor\b|\bin\s+(?:what|which)\s+order\b|"
    r"\bbefore\s+or\s+after\b",
    re.IGNORECASE,
)
# "which trip came first?" orders the events of a kind; "which year did I first ..."
# asks when one happened (``asks_when``)
_WHICH_FIRST = re.compile(r"\bwhich\b.*\b(?:first|earlier)\b", re.IGNORECASE)
# "... answer yes or no": a choice of answers, not of events
_YES_OR_NO = re.compile(r"\byes\s+or\s+no\b", re.IGNORECASE)
_COUNT_EVENTS = re.compile(r"\bhow\s+(?:many|often)\b|\bnumber\s+of\b", re.IGNORECASE)
# "how many years ago ...", "how many days did it take ...": a duration, not a count
_DURATION = re.compile(
    r"\bhow\s+many\s+(?:seconds|minutes|hours|days|nights|weeks|months|years|decades)\b",
    re.IGNORECASE,
)
# "as of May", "by 2024", "until June": the window is everything up to the time named
_UP_TO = re.compile(
    r"\b(?:as\s+of|by|until|till|up\s+to|before)\s+(?:the\s+(?:end|start)\s+of\s+)?$",
    re.IGNORECASE,
)

_LEAD = re.compile(r"(?:of|by|before|until|till|up\s+to)\s+", re.IGNORECASE)


def event_question(query: str, dateless: str | None = None) -> EventForm | None:
    """Whether the query counts or orders events of one kind, and how: ``between``
    (how long between two), ``order`` (which came first) or ``count`` (how many);
    None for any other query. Such a read gathers every event of the kind in its
    window (``recall/plan.py``: the events step).

    The form is read on the question without its time expressions and without "yes
    or no": "the first half of September" orders nothing, "yes or no" offers no two
    events. "Which … first" orders only when the question does not ask for a time
    ("which year did I first …" asks when one event happened). ``dateless``: the
    query without its time expressions, when the caller has it."""
    form = _YES_OR_NO.sub(" ", without_times(query) if dateless is None else dateless)
    if _BETWEEN_EVENTS.search(form):
        return EventForm.BETWEEN
    if _ORDER_EVENTS.search(form) or AROUND_EVENT.search(form):
        return EventForm.ORDER
    if _WHICH_FIRST.search(form) and not asks_when(query):
        return EventForm.ORDER
    if _COUNT_EVENTS.search(form) and not _DURATION.search(form):
        return EventForm.COUNT
    return None


# the event forms that order events or span the time between them: a time question
_PLACING = frozenset({EventForm.ORDER, EventForm.BETWEEN})


def asks_when(query: str) -> bool:
    """Whether the query asks for a time ("when did ...", "what year ...")."""
    return bool(_TEMPORAL.search(query))


_PERSONAL = re.compile(r"\b(?:i|me|my|we|us|our|you|your)\b", re.IGNORECASE)


def speaks_in_person(query: str) -> bool:
    """Whether the query speaks in the first or second person ("can you find me ...",
    "what should I ..."): a request of the user's own, not a question about others."""
    return bool(_PERSONAL.search(query))


_HOW = re.compile(
    r"\bhow\s+(?:do|can|could|should|would|to)\s+(?:i|we|you)?\b|\bhow\s+to\b|"
    r"\b(?:steps?|procedure|workflow|instructions?|command|set\s+up|install|configure|"
    r"fix|error|debug)\b",
    re.IGNORECASE,
)


def asks_how(query: str) -> bool:
    """Whether the query asks how to do something (procedures may hold the answer)."""
    return bool(_HOW.search(query))


_DIMENSIONS: tuple[tuple[re.Pattern[str], tuple[FactCategory, ...], str], ...] = (
    (_CHECK, (FactCategory.POLICY, FactCategory.VALUE), "asks permission"),
    (
        re.compile(
            r"\b(?:goals?|aims?|save|saving|savings|budget|afford|cheap|cheaper|"
            r"inexpensive|expensive|cost|money|achieve|target|improve|progress|"
            r"lose\s+weight|get\s+fit|train(?:ing)?\s+for|career|promotion|"
            r"want\s+to|trying\s+to|working\s+towards?)\b|budget-friendly",
            re.IGNORECASE,
        ),
        (FactCategory.GOAL,),
        "names an aim",
    ),
    (
        re.compile(
            r"\bgiven\s+(?:my|our|the)\b|\bmy\s+(?:situation|condition|circumstances|"
            r"health|schedule|state)\b|\b(?:currently|right\s+now|at\s+the\s+moment|"
            r"these\s+days|lately|recovering|injured|pregnant|busy|tired|sick)\b",
            re.IGNORECASE,
        ),
        (FactCategory.STATE,),
        "refers to the user's situation",
    ),
    (
        re.compile(r"\bwhy\b|\bbecause\b|\breasons?\b|\bcaus(?:e|ed|es)\b", re.IGNORECASE),
        (FactCategory.CAUSAL,),
        "asks for a reason",
    ),
)
_DECISION_CATEGORIES = (FactCategory.POLICY, FactCategory.VALUE)


def classify(query: str) -> Classification:
    """The rules' reading of a query: intent, constraint dimensions, decision-likeness.

    ``unsure`` is set when no rule fired (the query falls to ``general``); that is when
    an LLM classifier, if configured, is asked.
    """
    reasons: list[str] = []
    categories: list[FactCategory] = []
    for pattern, dims, reason in _DIMENSIONS:
        if pattern.search(query):
            reasons.append(reason)
            categories.extend(c for c in dims if c not in categories)
    check = bool(_CHECK.search(query))
    decide = requests(query, _DECIDE)
    if check:
        intent = Intent.CONSTRAINT_CHECK
    elif decide:
        intent = Intent.DECISION
        reasons.append("asks for a choice")
        categories.extend(c for c in _DECISION_CATEGORIES if c not in categories)
    elif (
        _TEMPORAL.search(query)
        or _SPAN.search(query)
        # the words as said (``dateless``): classify parses no time
        or event_question(query, dateless=query) in _PLACING
    ):
        intent = Intent.TEMPORAL
    elif _IDENTITY.search(query):
        intent = Intent.IDENTITY
    elif _PREFERENCE.search(query):
        intent = Intent.PREFERENCE
    elif _MULTI_HOP.search(query):
        intent = Intent.MULTI_HOP
    else:
        intent = Intent.GENERAL
    if intent is not Intent.GENERAL:
        reasons.insert(0, f"rule: {intent.value}")
    return Classification(
        intent=intent,
        categories=tuple(categories),
        decision=check or decide or requests(query, _ADVICE),
        unsure=intent is Intent.GENERAL and not categories,
        reasons=tuple(reasons),
    )


@dataclass(frozen=True)
class QueryAnalysis:
    """Everything the planner and the scorers need to know about a query."""

    query: str
    terms: tuple[str, ...]
    classification: Classification
    time_range: tuple[datetime, datetime] | None  # only when the query recalls a past period
    names: tuple[str, ...] = ()  # normalised names it may mention (alias-table keys)
    events: EventForm | None = None  # it counts or orders events of one kind
    # the query without its time expressions, as ``analyze`` found it (``dateless``)
    found_dateless: str | None = field(default=None, repr=False, compare=False)

    @property
    def intent(self) -> Intent:
        return self.classification.intent

    @property
    def dateless(self) -> str:
        """The query without its time expressions (``fact_time.without_times``): what
        the events step and a time-filtered read's fact scoring read, found once a read
        (finding the times is a parse of the whole query)."""
        if self.found_dateless is None:
            return without_times(self.query)
        return self.found_dateless

    @property
    def decision(self) -> bool:
        return self.classification.decision


def analyze(
    query: str,
    reference_time: datetime,
    timezone: str | None = None,
    *,
    time_filter: bool = True,
    names: tuple[str, ...] = (),
) -> QueryAnalysis:
    """Rules only (microseconds): intent, dimensions, terms, the recalled period and
    whether it counts or orders events."""
    dateless = without_times(query)
    events = event_question(query, dateless)
    period = None
    if time_filter:
        period = query_time_range(query, reference_time, timezone, up_to=events is not None)
    recalls = asks_about_past(query) or events is not None
    if period is not None and not (period[0] < reference_time and recalls):
        # a request that merely names a time ("move the review to Thursday", "plan
        # this weekend") is not a recall of it
        period = None
    classification = classify(query)
    if period is not None and classification.intent is Intent.GENERAL:
        classification = Classification(
            intent=Intent.TEMPORAL,
            categories=classification.categories,
            decision=classification.decision,
            reasons=("rule: temporal (names a past period)",),
        )
    return QueryAnalysis(
        query=query,
        terms=tuple(query_terms(query)),
        classification=classification,
        time_range=period,
        names=names,
        events=events,
        found_dateless=dateless,
    )
