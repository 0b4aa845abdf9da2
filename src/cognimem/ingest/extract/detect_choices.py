"""The detector for stances: what the speaker is against ("I dislike ...", "I prefer not
to ...", "I have no interest in ...", "X isn't my thing"), what they choose or require
("I prefer ...", "I'd rather ...", "I stick to ...", "I need ...", "X is a must"), what
they do only ("I only ...", "... exclusively"), and the rules they keep by habit ("I
always ...", "When I travel I ...", "I wear earplugs because ...").

A stance is a constraint, read into a ``policy`` fact (``value`` when exclusive) whose
value is its *whole object*: the phrase up to a reason or a new clause, with its
modifiers ("products with parabens, sulfates or artificial fragrance", "fly on red-eye
flights"), never cut to a head word; the polarity is false for what the speaker is
against. A condition said before the stance ("When I travel, ...", "On weeknights ...")
is kept at the end of the value ("pack my own pillow when I travel"); a reason ("...
because of my knee") is not part of the object (the causal detector keeps it).

People say these in many voices, all read here: hedged ("I tend to steer clear of
...", "I try to avoid ..."), idiomatic ("I've gone off ...", "I've no patience for
...", "I stay well away from ...", "I'm not comfortable with ..."), an aversion had or
been ("I have a strong aversion to ...", "I'm averse to ...", "I refrain from ...",
"I'm deeply uncomfortable with ...", not with how one event went; "I'm not willing to
..."), with the object
first ("X isn't really my bag", "X's not my scene", "X is a hard no from me", "X are
banned in this house", "X drives me up the wall", "X is something I won't touch"), as a
request with no verb ("please, no X", "nothing with X please": against "anything with
X"; not when the sentence's allergy or diet already binds it), an exclusive said by its
alternative ("X or nothing"), "I'll only ...", "I'd much prefer ...", and what the
speaker does better with ("I sleep better with the window open"). A new clause after a
comma ("..., it all tastes like soap") ends the object; an object that ends on a time of
one occasion ("I'm not doing anything then") is no stance.

More voices (the subject left out, "I find X exhausting", "X is my idea of hell", "No X
for me", "Please avoid recommending X" ...) are read by :mod:`.stance_forms`; a verb of
feeling or avoiding no list names ("I abhor X", "When I'm tired I shy away from X") by
:mod:`.feeling_verbs`, before a framed clause is read as a habit; a kind of thing judged
by what it is to the speaker ("X are the worst", "X is a headache for me", "X is a real
joy for me") by :mod:`.judged_kinds`, after the plainer likes; one judged by a noun and
the speaker's relative clause ("X is a chore I can't stand") is put back in the usual
order by :mod:`.judged_relatives` and read first. A negated verb of weariness or giving
up ("I never tire of X", :mod:`.unwearied`) is read as a habit (:mod:`.habit_forms`):
for X. A strong like ("I adore X", :mod:`.strong_likes`) or a specified love ("I love X with Y",
:mod:`.specified_likes`) is tried last: a choice for it, beside the preference.

Nothing here names a topic: the markers are the verbs and idioms of liking, refusing,
choosing and requiring, and English function words.
"""

from __future__ import annotations

from datetime import datetime

from cognimem.ingest.extract import choice_objects as co
from cognimem.ingest.extract import lexicon as lx
from cognimem.ingest.extract.choice_objects import whole_object
from cognimem.ingest.extract.clauses import Clause, is_laughing, is_subordinate, prepare_clause
from cognimem.ingest.extract.collector import Collector
from cognimem.ingest.extract.comma_reasons import gives_comma_reason
from cognimem.ingest.extract.detect_constraints import primary_tag
from cognimem.ingest.extract.detect_preferences import PREFERENCE_TAGS
from cognimem.ingest.extract.feeling_verbs import feeling_hint, feeling_stance
from cognimem.ingest.extract.habit_forms import habit_stance, habitual
from cognimem.ingest.extract.habit_verbs import PAST_WORDS, framed_verb, present_verb
from cognimem.ingest.extract.judged_kinds import judged_hint, judged_kind
from cognimem.ingest.extract.judged_relatives import judged_relative
from cognimem.ingest.extract.like_forms import LIKE_WORDS, like_form
from cognimem.ingest.extract.object_first import object_first
from cognimem.ingest.extract.patterns import NOT_PAST_ED, ONLY_NOT_CHOICE, gated, icase
from cognimem.ingest.extract.rated_stances import rated_hint
from cognimem.ingest.extract.specified_likes import specified_love
from cognimem.ingest.extract.stance_forms import (
    LIST,
    OBJECT_WORDS,
    ONLY_VERB_TAGS,
    against_form,
    antecedent,
    except_only,
    for_form,
    generic_condition,
    gives_own_reason,
    is_reason_clause,
    not_had,
    opens_with_its_occasion,
    restore_subject,
    taken_when_offered,
    worth,
)
from cognimem.ingest.extract.strong_likes import strong_like
from cognimem.ingest.extract.verdict_forms import VERDICT_WORDS, fronted, verdict
from cognimem.models.extraction import ExtractedFact
from cognimem.models.knowledge import CONSTRAINT_CATEGORIES
from cognimem.models.knowledge import FactCategory as Cat
from cognimem.text.scope_tags import scope_tags
from cognimem.text.tokens import tokens

__all__ = ["ChoiceReader"]

_SUBJECT = r"(?:I|we)(?:\s+|(?='))"
_BE = r"(?:I'm|we're|I am|we are|(?:our|my)\s+(?:family|household)\s+is)"
_ADV = (
    r"(?:(?:really|just|also|usually|generally|honestly|genuinely|definitely|absolutely|politely|"
    r"totally|personally|strictly|simply|truly|still|mostly|much|far|typically|normally|"
    r"actually|kind of|sort of|pretty much|by and large|tend to|try to|try and|"
    r"trying(?:\s+(?:really|so|very))?(?:\s+hard)?\s+to)\s+)*"
)
# verbs after "don't" / "can't" / "never" that say what the speaker thinks, knows or has,
# not what they do: "I don't know", "I can't wait"
_NOT_STANCE_VERBS = (
    "know|think|remember|recall|mind|understand|care|get|see|feel|believe|expect|agree|"
    "doubt|mean|recognize|recognise|blame|miss|worry|need|have|hear|deserve|wanna|usually|"
    "even|really|own|live|wait|decide|tell|say|help|imagine|figure|find|thank|seem|stop|"
    "afford to miss|speak for|complain|lie|guess|want to|wish|trust you|judge|follow|"
    "recommend it|disagree|regret|buy it|be|ever|always|quite|work (?:at|for|in|as)|resist|say no"
)
# "stay well away from", "keep clear of", "steer well clear of"
_KEEP_AWAY = (
    r"(?:stay|keep|steer)\s+(?:(?:well|far|right|well and truly)\s+)?(?:away\s+from|clear\s+of)"
)
# kept away from, cut back on: "I've steered clear of", "cutting down on"
_KEEP_AWAY_DONE = (
    r"(?:stayed|kept|steered|been staying|been keeping|been steering)\s+(?:well\s+)?"
    r"(?:away\s+from|clear\s+of)"
)
_CUT_DOWN = r"(?:cut|cutting)\s+(?:right\s+)?(?:down|back)\s+on"
# a negative stance: the marker, then the object
_AGAINST = icase(
    rf"\b(?:{_SUBJECT}{_ADV}(?P<v>(?:(?:have|need|got|'ve got) to\s+|must\s+|should\s+)?"
    rf"(?:avoid|{_KEEP_AWAY})|dislike|hate|detest|loathe|despise|"
    # "can't stand up / still": the body's, not a stance
    rf"can't stand(?!\s+(?:up|still|straight|upright|around|there|here|on|in|for|long)\b)|"
    rf"can't bear|don't {_ADV}(?:like|enjoy|love|care for|fancy|want(?! to\b)|"
    rf"go in for|"
    rf"want to(?!\s+(?:{_NOT_STANCE_VERBS}|bother|sound|seem|go on|jinx|waste|lose|hurt|disturb|"
    rf"impose|intrude|pry|rush|push|overstep|overdo|miss|forget|be|upset|offend|keep you|let|"
    rf"[a-z]+\s+(?:them|him|her|anyone|anybody|everyone|it|that|this)\b)\b)|"
    rf"get (?:on|along) with|believe in|"
    rf"trust|do|allow|use|buy|touch)|have (?:no|zero|little|absolutely no) (?:"
    rf"patience|tolerance|appetite) (?:in|for)|swore off|have (?:(?:completely|totally|"
    rf"really|a bit)\s+)?(?:gone|sworn)\s+(?:right\s+)?off|prefer not to|'d prefer not to|"
    rf"would prefer not to|'d rather not|would rather not|"
    rf"'d sooner not|refuse to|won't(?! be\b)|will never|"
    rf"decline(?!\s+(?:to|the|your|his|her|their|that|this|it|him|them)\b)|"
    # a refusal said as what the speaker would never do ("I'd never buy a used car"),
    # kept up ("I've been avoiding X") or cut back ("I'm cutting down on X")
    rf"(?:tend|do (?:my|our) best|make a point)\s+(?:(?:not|never)\s+to|of\s+(?:not|never))|"
    rf"(?:'d|would) (?:happily\s+|gladly\s+)?never"
    rf"(?!\s+(?:have|{_NOT_STANCE_VERBS}|{PAST_WORDS}|{NOT_PAST_ED}[a-z]+ed)\b)|"
    rf"have\s+(?:been\s+)?{_ADV}(?:avoid(?:ed|ing)|{_KEEP_AWAY_DONE}|{_CUT_DOWN})|"
    rf"never(?!\s+(?:{_NOT_STANCE_VERBS}|{PAST_WORDS}|{NOT_PAST_ED}[a-z]+ed)\b)|"
    # "I can't make it (tonight)", "can't be there": one occasion missed, not a rule
    rf"don't(?!\s+(?:{_NOT_STANCE_VERBS})\b)|"
    rf"can't(?:\s+(?:really|just|even))?(?!\s+(?:{_NOT_STANCE_VERBS}|make it|be there|stand\s+"
    rf"(?:up|still|straight|upright))\b)|"
    rf"can't (?:be (?:doing|bothered) with|have(?=\s+any))|"
    rf"have stopped|have quit|have given up|have cut out|skip|draw the line at|refrain from|"
    # an aversion had: "I have a strong aversion to X", "I have a real dislike of X"
    rf"have (?:an?\s+)?(?:(?:strong|real|deep|deep-seated|slight|bit of an?|general)\s+)?"
    rf"(?:aversion|dislike|distaste) (?:to|for|of|towards?)|wean (?:myself|"
    rf"ourselves) off|(?:'d|would) (?:rather|sooner) die than|(?:'ll|will) pass on(?=\s+(?:any|"
    rf"all))|"
    rf"have had (?:enough|my fill) of|"
    rf"stay off|stay out of|keep away from)|"
    rf"{_BE}\s+{_ADV}(?P<b>not\s+{_ADV}(?:an?\s+(?:big\s+|huge\s+|great\s+)?fan\s+of|"
    rf"into|interested\s+in|keen\s+on|big\s+on|fond\s+of|"
    rf"comfortable(?:\s+(?:with|in|about|around))?)|"
    # an aversion said as what the speaker is: "I'm deeply uncomfortable with X", "I'm
    # averse to X", "I'm not willing to X"
    rf"(?:(?:deeply|very|quite|rather|extremely|a\s+bit)\s+)?(?:averse\s+to|uncomfortable\s+"
    rf"(?:with|about|around)(?!\s+(?:how|what|where|when|why|who|the\s+way)\b)|(?:not\s+{_ADV}willing|unwilling)\s+to)|"
    rf"not\s+(?:really\s+)?one\s+for|"
    rf"not(?=\s+(?!(?:going|saying|kidding|joking|feeling|trying|looking|asking|telling|"
    rf"talking|complaining|getting any|working (?:at|for|in|as)|living)\b)[a-z]+ing\b)|"
    rf"done\s+with|staying\s+away\s+from|{_CUT_DOWN}|"
    rf"(?:no|not\s+much\s+of\s+an?)\s+(?:big\s+|huge\s+|great\s+)?fan\s+of|"
    rf"(?:so\s+)?(?:sick(?:\s+and\s+tired)?|tired)\s+of|fed\s+up\s+with|"
    rf"steering\s+clear\s+of|avoiding|cutting\s+out|skipping|(?:wary|suspicious)\s+of|weaning\s+"
    rf"(?:myself|ourselves)\s+off|(?:so|totally|completely)\s+over|(?:(?:dead|firmly|strongly)\s+)?"
    rf"(?:against|opposed\s+to)|put\s+off\s+by|never\s+in\s+the\s+mood\s+for|not\s+about\s+to"
    rf"(?:\s+start)?|"
    rf"off(?=\s+[a-z]+(?:\s+[a-z]+)?\s+(?:for\s+now|at\s+the\s+moment|these\s+days|until)\b)"
    rf"(?!\s+(?:to|on|for|at|in|out|work|duty|sick|home|the)\b)|wean(?:ing)?\s+(?:myself|"
    rf"ourselves)\s+off)|"
    rf"(?:our|my)\s+(?:family|household)\s+(?:isn't|doesn't)\s+(?:really\s+)?"
    rf"(?P<f>into|do|like|enjoy))\s+(?P<rest>.+)"
)
# a positive stance: a choice, a requirement, a standing habit
_FOR = icase(
    rf"\b(?:{_SUBJECT}{_ADV}(?P<v>prefer(?! not\b)|"
    rf"(?:'d|would) (?:much\s+|far\s+)?prefer(?! not\b)|"
    rf"(?:'d|would) (?:much\s+|far\s+)?(?:rather|sooner)(?! not\b)|"
    rf"'d (?:always\s+)?choose|would (?:always\s+)?choose|'ll (?:always\s+)?(?:pick|choose|go "
    rf"for)|'d (?:always\s+)?go for|always (?:pick|choose|go for|opt for)|go for|opt for|"
    rf"(?:(?:have|need|got) to\s+|must\s+)?(?:stick to|stick with)|choose(?!\s+(?:to|my|our)\b)|"
    rf"favou?r|lean\s+(?:to|towards?)|gravitate\s+(?:to|towards?)|"
    rf"can't (?:live|do|function|cope) without|"
    rf"insist on|swear by|need(?! to\b| help\b| a break\b| advice\b| some\b| ideas?\b| "
    rf"suggestions?\b| a minute\b| time\b| more\b| a hand\b)|make sure (?:I|we|to)?|"
    rf"make a point of(?!\s+(?:not|never)\b)|always"
    rf"(?=\s+(?!(?:{_NOT_STANCE_VERBS}|wanted|thought|loved|liked|been)\b))|am drawn to|"
    rf"'m drawn to|'re drawn to|'d (?:much\s+)?sooner(?! not\b)|can't (?:resist|say no to)|"
    rf"have (?:a|an)\s+(?:real\s+|big\s+)?(?:soft spot|weakness|fondness|thing) for)|"
    rf"{_BE}\s+{_ADV}(?P<b>all about|all for|drawn to|(?:quite\s+|very\s+)?partial to|loyal to|"
    rf"sticking (?:to|with)|"
    rf"an?\s+(?:big\s+|great\s+|firm\s+|huge\s+)?believer\s+in|"
    rf"only looking at|going for|opting for))\s+(?P<rest>.+)"
)
_ONLY = gated(
    rf"\b{_SUBJECT}(?:'ll\s+|will\s+|can\s+)?{_ADV}(?P<v>only|exclusively)\s+(?:ever\s+)?"
    rf"(?!(?:just|{ONLY_NOT_CHOICE})\b"
    rf"\b|had\b|got\b|found\b|realized\b|realised\b|heard\b|knew\b|saw\b|started\b|recently\b"
    rf"|one\b|a few\b)(?P<rest>[a-z].+)"
)
_ONLY_AFTER = gated(
    rf"\b{_SUBJECT}(?P<rest>(?!(?:only|just|{ONLY_NOT_CHOICE})\b)[a-z]+\b.*?)"
    rf"\s+(?P<v>exclusively|only)\b(?P<tail>.*)"
)
# the object first, then the stance on it: "Sleeping pills are something I won't touch"
_OBJECT_THEN_STANCE = icase(
    r"^(?P<rest>[a-z][\w' ,&-]{1,80}?)\s+(?:is|are)\s+(?:something|a thing|one thing|the one "
    r"thing)\s+(?:that\s+)?(?P<stance>(?:I|we)(?:\s|'m\s|'re\s).+)$"
)
# a request against something, said with "please" and no verb: "please no spoilers",
# "nothing with nuts please", "..., so no meat dishes please"
_PLEASE_NO = icase(
    r"(?:^|[,;]\s*|\b(?:so|but|and|just)\s+)(?:(?:please|pls)[\s,]+)+(?P<no>no|nothing)\s+"
    r"(?P<rest>.+)|(?:^|[,;]\s*|\b(?:so|but|and|just)\s+)(?P<no2>no|nothing)\s+"
    r"(?P<rest2>.+?)[\s,]+(?:please|pls)\s*[.!]*$"
)
_NOT_A_REQUEST = icase(
    r"^(?:worries|problem|rush|pressure|idea|clue|thanks|need|offen[cs]e|way|one|body|hurry|"
    r"stress|biggie|sweat|doubt|kidding|joke|big deal)\b"
)
# what the speaker does better with: "I sleep way better with the window open"
_BETTER_WITH = icase(
    rf"^{_SUBJECT}{_ADV}(?P<verb>[a-z]+)\s+(?:(?:way|much|so much|far|a lot|loads|heaps|"
    rf"so)\s+)?(?P<best>better|best)\s+(?P<rest>(?:with|without|from|on|in|after)\s+.+)"
)
_OBJECT_FOR = gated(
    r"^(?P<rest>[a-z][\w' ,-]{1,80}?)\s+(?:(?:is|are)\s+(?:an?\s+|absolutely\s+)?(?:must|"
    r"must-have|non-negotiable|essential|(?:my|our)\s+(?:go-to|default|rule))|suits?\s+"
    r"(?:me|us)\s+best|works?\s+best\s+for\s+(?:me|us))\b",
    gate_match=True,
)
# a habit said with its reason ("I wear earplugs because my partner snores"), or kept
# "without fail": a rule by its framing
_HABIT = icase(rf"^{_SUBJECT}{_ADV}(?P<verb>[a-z]+)(?:\s+(?P<rest>.+)|\s*[.!]*$)")
_RULE_FRAME = icase(
    r"\b(?:without fail|without exception|no matter what|religiously|every single|no exceptions|"
    r"wherever (?:I|we) can|wherever possible|to (?:once|twice|one|two|three) (?:a|per) \w+)\b"
)
_BINDING = frozenset({"allergy", "intolerance", "diet"})
# the words without which the patterns above cannot match (a set lookup is cheaper)
_THING_WORDS = frozenset({"something", "thing"})
_PLEASE_WORDS = frozenset({"please", "pls"})
_REASON_WORD = gated(r"\b(?:because|since|cause|cuz|due to)\b")
_WHOLE_CHARS = 240
# a need is a standing requirement when it says what is needed ("a standing desk at
# work"); "I need a nap" is a passing state
_NEED_WORDS = 3
_NEED = icase(r"\bneed\b")
_BEST_WORDS = frozenset({"better", "best"})
_LEANING = icase(r"(?:lean|gravitate)\b")
_HINT_WORDS = LIKE_WORDS | VERDICT_WORDS


def _said_first(said: str, words: frozenset[str]) -> tuple[str, bool] | None:
    """A stance read before the verbs of :data:`_AGAINST` could take its clause: "X is
    something I won't touch" and a request with no verb ("please, no X", "nothing with
    X please"): the object and whether it is a request."""
    if not _THING_WORDS.isdisjoint(words):
        m = _OBJECT_THEN_STANCE.match(said)
        if m and _AGAINST.match(f"{m.group('stance').rstrip(' .!')} it"):
            return m.group("rest"), False
    if _PLEASE_WORDS.isdisjoint(words):
        return None
    m = _PLEASE_NO.search(said)
    if m is None:
        return None
    rest = m.group("rest") or m.group("rest2")
    if _NOT_A_REQUEST.match(rest):
        return None
    nothing = (m.group("no") or m.group("no2")).lower() == "nothing"
    return (f"anything {rest}" if nothing else rest), True


class ChoiceReader(Collector):
    """Reads stances with their whole object."""

    condition: str | None = None  # the condition the current sentence opens with
    sentence_start = 0  # how many facts were read before the current sentence

    def __init__(self, reference: datetime) -> None:
        super().__init__(reference)
        self.stances_read: list[ExtractedFact] = []  # kept when the sentence laughs

    def _bound(self) -> bool:
        """Whether the current sentence stated an allergy or a diet: a request that
        follows it ("I'm vegetarian, so no meat please") says what that already binds."""
        return any(f.predicate in _BINDING for f in self.facts[self.sentence_start :])

    def _keep_reason(self, text: str, evidence: str, since: int) -> None:
        """A stance read since fact ``since`` with its reason in the sentence ("We need
        blackout curtains since the streetlight shines in") and no cause read: the
        sentence is kept whole as the cause, as the causal detector would keep it; not
        when another constraint already reads the reason ("because my knees are bad" is
        a state)."""
        read = self.facts[since:]
        stances = [f for f in read if any(f is s for s in self.stances_read)]
        others = [f for f in read if f.category in CONSTRAINT_CATEGORIES and f not in stances]
        values = [f.value for f in stances]
        if others or not (gives_own_reason(text, values) or gives_comma_reason(text, values)):
            return
        clause = prepare_clause(text, evidence, self.ref)
        tags = scope_tags(text.replace("-", " "))
        if clause is not None and len(text) <= _WHOLE_CHARS:
            predicate = "health" if "health" in tags else (tags[0] if tags else "general")
            value = text.rstrip(" .!")
            self.add(clause, Cat.CAUSAL, predicate, value, tags=tags, confidence=0.6)

    def _may_choose(self, c: Clause) -> bool:
        """Whether :meth:`_choice` can read ``c``: a marker word, or a frame."""
        hinted = not c.words.isdisjoint(_HINT_WORDS) or rated_hint(c.words)
        if self._framed(c) or hinted or feeling_hint(c.words) or judged_hint(c.words):
            return True
        return judged_relative(self._main(restore_subject(c.said))) is not None

    def _framed(self, c: Clause) -> bool:
        return (
            c.may("choice") or self.condition is not None or bool(_REASON_WORD.search(c.evidence))
        )

    def _choice(self, c: Clause, *, moved: bool = False) -> bool:
        said = restore_subject(c.said)  # "Not a fan of X"
        if not moved and (relative := self._judged_relative(c, said)) is not None:
            return relative
        if not (moved or self._framed(c)):
            return self._verdict(c, said) or self._like(c, said)
        first = _said_first(said, c.words)
        if first is not None and not (first[1] and self._bound()):
            return self._stance_fact(c, first[0], polarity=False)
        if (habit := habit_stance(said)) is not None:  # "I tend to pass on X", "My go-to is X"
            return self._unlaughed(c, *habit)
        m = _AGAINST.search(said)
        if m:
            if co.no_rule(m.group("v"), m.group("b"), m.group("rest")):
                return False
            if only := except_only(m["rest"]):  # "I won't buy anything except X"
                return self._stance_fact(c, only, polarity=True, only=True)
            return self._stance_fact(c, m.group("rest"), polarity=False)
        against = against_form(said)
        if against is not None and not (against[1] and self._bound()):
            return self._stance_fact(c, against[0], polarity=False)
        read = object_first(said, c.words)
        if read is not None:
            return self._stance_fact(c, read[0], polarity=read[1], only=read[1])
        if m := _ONLY.search(said):
            return self._stance_fact(c, m.group("rest"), polarity=True, only=True)
        m = _ONLY_AFTER.search(said)
        if m and not m.group("tail").strip(" ,.!").lower().startswith(("if", "when", "because")):
            rest = f"{m.group('rest')}{m.group('tail')}"
            return self._stance_fact(c, rest, polarity=True, only=True)
        offered = taken_when_offered(said) or for_form(said)
        if offered is None and (offered := taken_when_offered(c.evidence)) is not None:
            self.condition = None  # "If there's X I'll always take that": the "if" is X
        if offered is not None:
            return self._stance_fact(c, offered, polarity=True)
        m = _FOR.search(said)
        if m:
            if (
                _NEED.match(m.group("v") or "")
                and len(tokens(whole_object(m.group("rest")))) < _NEED_WORDS
            ):
                return False
            if _LEANING.match(m["v"] or ""):  # "I gravitate toward the fridge, lol": none
                return self._unlaughed(c, m["rest"], True)
            return self._stance_fact(c, m.group("rest"), polarity=True, compared=True)
        if m := _OBJECT_FOR.match(said):
            return self._stance_fact(c, m.group("rest"), polarity=True)
        m = _BETTER_WITH.match(said) if not _BEST_WORDS.isdisjoint(c.words) else None
        if m and present_verb(m.group("verb")):
            rest = f"{m.group('verb')} {m.group('best')} {m.group('rest')}"
            return self._stance_fact(c, rest, polarity=True, compared=True)
        if (felt := feeling_stance(self._main(said))) is not None:  # "..., I shy away from X"
            return self._stance_fact(c, felt[0], polarity=felt[1], compared=True)
        if self._habit(c, said):
            return True
        read = object_first(said, c.words, later=True)
        if read is not None:
            return self._stance_fact(c, read[0], polarity=read[1], only=read[1])
        verdict_read = not moved and self._verdict(c, said)  # "X gets on my nerves"
        return verdict_read or (not self._strong(c, said) and self._like(c, said))

    def _judged_relative(self, c: Clause, said: str) -> bool | None:
        """ "X is a chore I can't stand" read as "I can't stand X" (:mod:`.judged_relatives`);
        ``None`` when that reads nothing, or for a cleft (:func:`.verdict_forms.fronted`)."""
        main = self._main(said)
        if fronted(main) is not None or (back := judged_relative(main)) is None:
            return None
        clause = prepare_clause(back, c.evidence, self.ref)
        before = len(self.facts)
        read = clause is not None and self._choice(clause, moved=True)
        return read if len(self.facts) > before else None

    def _main(self, said: str) -> str:
        """The sentence after the condition it opens with, if any."""
        cond = self.condition or ""
        return said[len(cond) :].strip(" ,") if cond and said.startswith(cond) else said

    def _verdict(self, c: Clause, said: str) -> bool:
        """A verdict on an object said first, or a fronted one (:mod:`.verdict_forms`)."""
        main = self._main(said)
        if (read := verdict(main)) is not None:
            return self._stance_fact(c, read[0], polarity=read[1], only=read[2])
        clause = prepare_clause(back, c.evidence, self.ref) if (back := fronted(main)) else None
        return clause is not None and self._choice(clause, moved=True)

    def _unlaughed(self, c: Clause, rest: str, polarity: bool) -> bool:
        """A stance said as a habit, a default or a leaning, unless its sentence laughs
        ("My go-to cardio is running late, haha" is a joke about oneself)."""
        if is_laughing(c.evidence):
            return False
        return self._stance_fact(c, rest, polarity=polarity, compared=polarity)

    def _habitual(self, c: Clause) -> None:
        """A plain habit ("I tend to cycle to work"), read last: only from a clause no
        detector read anything from ("I usually drink green tea" stays a preference)."""
        done = habitual(restore_subject(c.said))
        if done is not None and not is_laughing(c.evidence):
            self._stance_fact(c, done, polarity=True, compared=True)

    def _strong(self, c: Clause, said: str) -> bool:
        """A strong like or a specified love (``strong_likes``, ``specified_likes``): a choice."""
        if (like := strong_like(said) or specified_love(said, self.condition)) is not None:
            self._stance_fact(c, like, polarity=True)
        return like is not None

    def _like(self, c: Clause, said: str) -> bool:
        """A like or dislike in a plainer voice (:mod:`.like_forms`), else a kind of thing
        judged ("X are the worst", :mod:`.judged_kinds`: its whole subject, no option it
        is preferred to), else a strong like ("I really enjoy X" has no choice marker);
        only a dislike ends the clause."""
        read = like_form(said)
        compared = read is not None
        if read is None and (read := judged_kind(said)) is None:
            return self._strong(c, said) and False  # a like: the clause is read on
        rest, polarity = read
        return self._stance_fact(c, rest, polarity=polarity, compared=compared) and not polarity

    def _habit(self, c: Clause, said: str) -> bool:
        """A habit that is a rule by its frame: a condition before it ("When I travel I
        ...", "For anything under a mile I walk", "Unless ..., I don't have X"), a reason
        or "without fail"."""
        cond = self.condition or ""
        main = self._main(said)
        framed = is_subordinate(cond) or generic_condition(cond)
        if framed and (had := not_had(main)):
            return self._stance_fact(c, had, polarity=False)  # "I don't have X"
        m = _HABIT.match(main)
        if (
            m
            and (present_verb(m["verb"]) or (framed and framed_verb(m["verb"], m["rest"] or "")))
            and (framed or _RULE_FRAME.search(said) or _REASON_WORD.search(c.evidence))
            and not is_reason_clause(said, c.evidence)
        ):
            return self._stance_fact(c, f"{m['verb']} {m['rest'] or ''}", polarity=True)
        return False

    def _stance_fact(
        self,
        c: Clause,
        rest: str,
        *,
        polarity: bool,
        only: bool = False,
        compared: bool = False,
    ) -> bool:
        rest, polarity = co.switched_off(rest) if polarity else (rest, False)  # "I turn off X"
        what = antecedent(whole_object(rest, compared=compared), c.evidence)  # "..., I avoid them"
        if len(tokens(what)) > OBJECT_WORDS and "," in what and not LIST.search(what):
            # too long to be one object and no list: a new clause follows the comma
            # ("..., even a standby LED keeps me up")
            what = whole_object(what.split(",", 1)[0], compared=compared)
        if not worth(what) or opens_with_its_occasion(c.evidence) or co.polite_request(c.evidence):
            return False
        if self.condition:
            cond = self.condition
            what = f"{what} {cond[0].lower()}{cond[1:]}"
            self.condition = None
        if only:
            what = f"only {what}"
        domain = PREFERENCE_TAGS.get(lx.domain_of(what) or "", ())
        tags = scope_tags(what) or list(domain) or scope_tags(c.evidence)
        category = Cat.VALUE if only else Cat.POLICY
        verb = ONLY_VERB_TAGS.get(what.split()[1].lower(), "") if only else ""
        tags = [verb, *tags] if verb and verb not in tags else tags
        predicate = primary_tag(category, tags, "principle" if only else "general")
        before = len(self.facts)
        self.add(c, category, predicate, what, polarity=polarity, tags=tags, confidence=0.8)
        self.stances_read += self.facts[before:]
        return True
