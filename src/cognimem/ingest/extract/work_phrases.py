"""How chat says where someone works: "I work at Acme", "I run a bakery", "I got
promoted to head nurse", "I'm joining Fabrikam in May" (and when "joining" is work),
read by :class:`~cognimem.ingest.extract.detect_occupation.OccupationReader`."""

from __future__ import annotations

import re

from cognimem.ingest.extract import phrases
from cognimem.ingest.extract import vocabulary as vocab
from cognimem.ingest.extract.lexicon import alternation
from cognimem.ingest.extract.patterns import JOB, JOB_PHRASE, NAME, ORG, gated, icase

__all__ = [
    "ACCEPTED",
    "GOING_TO_SCHOOL",
    "GOT_INTO",
    "IM_THE",
    "JOB_START",
    "JOINING",
    "JOINING_FOR_WORK",
    "MY_JOB",
    "MY_JOB_ENDED",
    "MY_JOB_HOLDS",
    "PROMOTED_TO",
    "RUN_A",
    "STILL_AT",
    "TEACH",
    "WORK_AFTER",
    "WORK_AT",
    "WORK_AT_PLACE",
    "WORK_TALK",
    "is_home_role",
    "promotion",
    "talks_of_school",
    "talks_of_work",
]

# "the" may open the name ("at the National Gallery": the name is what follows it); a
# grade or a subject may stand between "teach" and "at" ("I teach music at Hillcrest")
WORK_AT = icase(
    rf"\b(?:I|we)\s*(?P<verb>work|worked|have worked|have been working|'m working|'re working|work "
    rf"full-time|work part-time|(?:fly|drive|write|code|consult|freelance|play)(?=\s+for\b)|"
    rf"(?:teach|taught)(?:\s+[a-z]+){{0,2}}?(?=\s+at\b))"
    rf"\s+(?P<prep>at|for|with)\s+(?:the\s+)?(?P<v>{ORG})"
)
# "work" whose subject, the speaker, was said once before it: "I live in Brooklyn and
# work for the Times" (read when the sentence opens with the speaker)
WORK_AFTER = icase(
    rf"\b(?:and|but)\s+(?:now\s+|also\s+|still\s+)?(?P<verb>work)\s+(?P<prep>at|for)\s+"
    rf"(?:the\s+)?(?P<v>{ORG})"
)
# "I'm the head of design at Canva", "I'm the CTO of a small startup"
IM_THE = icase(
    rf"\b(?P<verb>I'm|I was)\s+the\s+(?P<v>{JOB_PHRASE}|(?:head|director|vp|"
    rf"vice president|chief)\s+of\s+[a-z]+)\s+(?:at|of|for)\s+(?:(?P<org>{ORG})|(?:an?|our|my)\s+)"
)
# "I teach yoga" is a yoga teacher; "I teach at a school", "I teach kids" a teacher
_NOT_SUBJECT = (
    r"(?:at|in|on|for|to|part|full|online|kids|children|students|adults|classes|class|"
    r"people|them|it|that|this|there|a|an|the|some|my|our|every|twice|most|with|from|and|"
    r"but|now|part-time|full-time|privately|remotely|myself|me)\b"
)
TEACH = icase(
    rf"\bI\s+teach\b(?!\s+(?:myself|me)\b)(?:\s+(?P<v>(?!{_NOT_SUBJECT})(?-i:[a-zA-Z][a-z]+)"
    rf"(?:\s+(?!{_NOT_SUBJECT})(?-i:[a-z]+)){{0,2}})(?=\s*(?:[,.;!?]|$|\b{_NOT_SUBJECT})))?"
)
# "I run a bakery": running a workplace is the job
RUN_A = icase(
    rf"\bI\s+(?P<verb>run|manage)\s+(?:a|an|my own|our own|the)\s+(?:(?:small|little|local|"
    rf"family|busy|tiny|new)\s+)?(?P<v>{alternation(vocab.WORKPLACES)})\b"
)
# "I got promoted to head nurse": the new job
PROMOTED_TO = gated(
    rf"(?:\b(?:I|we)|^(?P<who>{NAME}))\s+(?:(?:just|finally|recently|also|officially)\s+)?"
    r"(?:got|was|were|has been|have been|'ve been)\s+(?:just\s+)?promoted\s+"
    r"to\s+(?:an?\s+|the\s+)?(?P<v>[a-z][a-z -]{1,40}?)(?=\s*(?:[,.!;]|$|\b(?:at|in|on|"
    r"last|this|after|and)\b))"
)


def promotion(text: str) -> tuple[re.Match[str], str] | None:
    """A promotion that names the new job ("I got promoted to head nurse"): the match
    (its ``who`` when a name says it) and the job; the job is the fact, and the
    promotion no event beside it."""
    m = PROMOTED_TO.search(text)
    job = phrases.clean(m.group("v")) if m else ""
    return (m, job) if m and job else None


# how or when the work is done, between the verb and the workplace: "I work nights at
# a hospital", "I work the night shift at a warehouse", "I work in marketing at a startup"
_SHIFT = (
    r"(?:\s+(?:nights|days|evenings|mornings|weekends|overnight|overtime|shifts|night shifts|"
    r"part-time|full-time|part time|full time|(?:the\s+)?(?:night|day|late|early|evening|"
    r"morning|graveyard|overnight|weekend)\s+shifts?|in\s+[a-z]+))?"
)
WORK_AT_PLACE = icase(
    rf"\b(?:I|we)\s*(?P<verb>work|worked|have worked|have been working|'m working|quit my "
    rf"job|left my job|lost my job|got a job|started a (?:new )?job|started working|quit|"
    rf"teach|taught|(?:drive|deliver)(?=\s+for\b))(?:\s+[a-z]+\s+grade)?{_SHIFT}"
    rf"\s+(?:at|for|in)\s+(?:an?|the)\s+(?P<v>(?:[a-z-]+\s+){{0,2}}?(?:"
    rf"{alternation(vocab.WORKPLACES)}))\b"
)
JOB_START = gated(
    rf"\b(?:I|we)(?:\s+have)?\s+(?:just\s+)?(?P<verb>got a (?:new )?job|started a (?:new )?job|"
    rf"started "
    rf"(?:a new )?(?:working|work)|landed a (?:new )?job|accepted a (?:new )?job|quit my job|"
    rf"left my job|quit|got laid off from|was laid off from|got fired from|was fired from|"
    rf"(?:got|was|have been|'ve been) hired (?:at|by)|start(?=\s+at\b)|left(?=\s+{ORG}))\s+"
    rf"(?:(?:my\s+job\s+)?(?:at|with)\s+)?(?P<v>{ORG})"
)
# "my new job at Acme", "my old job at the bank" (ended), "my new job as a nurse"
MY_JOB = icase(
    r"\bmy\s+(?P<when>(?:new|current|old|last|previous|former|first|day|"
    r"full-time|part-time|summer)\s+)?(?:job|internship)\s+"
    rf"(?:(?:at|with)\s+(?:(?P<org>{ORG})|(?:an?|the)\s+(?P<place>(?:[a-z-]+\s+){{0,2}}?"
    rf"(?:{alternation(vocab.WORKPLACES)}))\b)|as\s+(?:an?\s+)?(?P<job>(?:[a-z-]+\s+){{0,2}}?"
    rf"(?:{JOB}))\b)"
)
# before "my job at ...": what says it holds (the clause opens with it, "I love my job
# at ..."), and what says it ended ("I lost my job at ..."); anything else ("looking for
# my first job as ...") says neither
MY_JOB_HOLDS = frozenset(["", "love", "like", "enjoy", "started", "start", "began"])
MY_JOB_ENDED = frozenset(["lost", "lose", "losing", "quit", "quitting", "left", "leaving"])
# a school got into: "I got accepted to Yale"
ACCEPTED = icase(
    rf"\b(?:I|we)\s+(?:just\s+)?(?:got|was|have been|'ve been)\s+accepted\s+"
    rf"(?:to|into|at|by)\s+(?P<v>{ORG})"
)
# a school got into or gone to: "I got into Princeton!", "I'm going to Purdue in the
# fall"; a school only when the window talks of school and no place is meant ("got into
# jazz" is a liking, "going to Maui in the fall" a trip)
GOT_INTO = icase(
    rf"\b(?:I|we)\s+(?:just\s+|finally\s+|actually\s+)?got\s+into\s+(?P<v>{ORG})"
    r"(?=\s*(?:[,.!;]|$)|\s+(?:for|this|next|in the fall|early)\b)"
)
GOING_TO_SCHOOL = icase(
    rf"\b(?:I'm|I am|I'll be|I will be)\s+(?:going|heading|off)\s+to\s+(?P<v>{ORG})\s+"
    r"(?:in\s+the|this|next)\s+(?:fall|autumn)\b"
)
SCHOOL_TALK = gated(
    r"\b(?:college|university|school|freshman|campus|semester|major|majoring|graduat\w*|"
    r"admissions?|accepted|degree|dorm|tuition|studied|studying|applied|applications?|"
    r"waitlist(?:ed)?)\b"
)


def talks_of_school(sentence: str) -> bool:
    """Whether ``sentence`` talks of school ("She's starting college")."""
    return SCHOOL_TALK.search(sentence) is not None


# a job about to start: "I'm joining Acme in May", "I'm starting at Acme"
JOINING = icase(
    rf"\b(?:I'm|I am|we're|I'll be|I will be)\s+(?P<verb>joining|starting(?=\s+at\b))\s+"
    rf"(?:at\s+)?(?P<v>{ORG})"
)
# "I'm still at Google": where the speaker still is, said with a name and nothing after
# it, is the workplace ("I'm still at the office", "still at Starbucks waiting" are not)
STILL_AT = icase(
    rf"^(?:I'm|I am|we're|we are)\s+still\s+(?P<verb>at)\s+(?P<v>{ORG})(?<!'s)"
    r"(?=\s*(?:[,.;!?]|$|(?:and|but|after|since)\b))"
)
# "joining" names an employer only when the sentence says it is work: "I'm joining
# Fabrikam as an engineer", "joining Acme's data team"; a club, gym or group is joined too
JOINING_FOR_WORK = icase(
    rf"\b(?:work|working|job|role|position|team|staff|hired|offer|employer|as\s+(?:an?\s+|"
    rf"their\s+|the\s+)?(?:[a-z-]+\s+)?(?:{JOB}))\b"
)
# a window that talks of a job: "joining <Org>" in a later turn is work; so does one
# that names someone by a relation of work ("my manager Paul ...")
WORK_TALK = gated(
    r"\b(?:company|job|jobs|employer|position|role|hired|resign(?:s|ed|ing)?|laid off|"
    r"career|offer|work|boss|manager|coworkers?|co-workers?|colleagues?|supervisor)\b"
)


def talks_of_work(sentence: str) -> bool:
    """Whether ``sentence`` talks of a job ("She's leaving the company")."""
    return WORK_TALK.search(sentence) is not None


# a job word said of a role among one's own, not a job: "the unofficial therapist of my
# friend group", "the designated driver of my family", "tech support for my parents"
_ROLE_WORD = icase(r"^(?:unofficial|self-appointed|self-proclaimed|honorary|designated)\b")
_FAMILY = (
    r"family|friends|friend group|household|house|home|kids|children|parents|relatives|"
    r"siblings|roommates|group chat|mom|mum|dad|husband|wife|partner|sister|brother|son|"
    r"daughter|grandparents|in-laws|teenagers|teens|toddlers|pets?|dogs?|cats?|puppy|"
    r"puppies|kittens?|plants|houseplants"
)
_FOR_MY_OWN = icase(
    r"^,?\s+(?:of|for|to)\s+(?:my|our)\s+(?:(?:whole|entire|own|little|two|three|four|five|"
    rf"\d+)\s+)?(?:{_FAMILY})\b(?!'s?\s+"
    r"(?:business|company|firm|restaurant|shop|store|practice|farm|bakery|clinic))"
)


def is_home_role(job: str, after: str) -> bool:
    """Whether ``job`` (as read: "unofficial therapist"), followed in the sentence by
    ``after``, names a role among the speaker's own rather than a job (see above); a job
    in the family's business ("the accountant for my family's bakery") is a job."""
    return _ROLE_WORD.match(job) is not None or _FOR_MY_OWN.match(after) is not None
