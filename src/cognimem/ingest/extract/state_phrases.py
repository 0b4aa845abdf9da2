"""How chat says a state of the speaker's body, work, money or family: "I'm pregnant",
"I was just diagnosed with X", "work has been crazy", "money is tight", "I'm dealing
with X", read by :class:`~cognimem.ingest.extract.detect_constraints.ConstraintReader`."""

from __future__ import annotations

import re

from cognimem.ingest.extract.patterns import HEAD_END, icase
from cognimem.text.noun_senses import first_class

__all__ = ["STATE_BE", "STATE_DID", "STATE_MORE", "STATE_SUBJECT", "injured_body", "state_said"]

STATE_BE = icase(
    r"\b(?:I'm|we're)\s+(?P<v>pregnant|expecting a baby|sick(?!\s+of)|ill|injured|"
    r"hospitalized|in (?:the )?hospital|in a cast|on crutches|on bed rest|on (?:medication|"
    r"meds|antibiotics|chemo|insulin|blood thinners)|(?:recovering|healing) from [^,;]+|"
    r"diabetic|immunocompromised|undergoing [^,;]+|getting over [^,;]+|going through (?:an? )?"
    r"(?:divorce|breakup|chemo|treatment|ivf|rough patch|hard time)[^,;]*|under the weather|"
    r"unemployed|out of work|between jobs|laid off|broke|in debt|on an? (?:(?:tight|strict|"
    r"limited|small|shoestring)\s+)?budget|grieving|(?:stressed|stressed out|overwhelmed|"
    r"burned out|burnt out|swamped|anxious) (?:at|about|with|from|by|over) [^,;]+|taking "
    r"(?:antibiotics|medication|meds|pills|insulin|[a-z]+ medication)[^,;]*|"
    r"(?:\d+|a few|two|three|four|five|six|seven|eight|nine) (?:weeks|months) pregnant)"
)
# a verb of injury, said of the speaker's body: "I broke my wrist"
_INJURY = r"(?:broke|fractured|sprained|tore|twisted|hurt|injured|dislocated|pulled|strained)"
STATE_DID = icase(
    rf"\b(?:I|we)\s+(?P<v>{_INJURY} my [^,;]+|"
    r"had (?:an? |my )?(?:surgery|operation|c-section|knee surgery|"
    r"back surgery|procedure|stroke|heart attack|concussion|miscarriage)[^,;]*|(?:was|got) "
    r"(?:just |recently )?diagnosed with [^,;]+|caught (?:a|the|covid)[^,;]*|tested positive "
    r"for [^,;]+|lost my job|got laid off|got fired|was laid off|was fired|got let go|"
    rf"(?:have|had|got|have had|have got) (?:an? |the )?(?:(?:terrible|bad|nasty|awful|"
    r"horrible|mild|slight|really bad|chronic|severe|major|killer|pounding|splitting|"
    r"bit of a|touch of the|bad case of the|bad case of)\s+)*(?:cold|flu|fever|covid|migraines?|"
    r"headache|stomach bug|sore throat|cough|back pain|chronic pain|concussion|infection|"
    r"ear infection|sinus infection|strep throat|bronchitis|pneumonia|diabetes|type [12] "
    r"diabetes|asthma|arthritis|anxiety|depression|adhd|insomnia|high blood pressure|bad back|"
    r"bad knee|injury|kidney stones?|food poisoning|morning sickness|ptsd|cancer|long covid|"
    r"heart condition|broken (?:leg|arm|wrist|ankle|foot|hand|finger|toe|rib|nose)|sprained "
    rf"(?:ankle|wrist)|torn (?:acl|meniscus|ligament|muscle)){HEAD_END}[^,;]*)"
)
STATE_SUBJECT = icase(
    r"^(?P<v>(?P<money>money|cash|finances|my budget)(?:'s|\s+is|\s+has been|\s+are|"
    r"\s+have been)\s+(?:really\s+|super\s+|so\s+|very\s+|pretty\s+|a bit\s+|quite\s+|"
    r"extremely\s+)?(?:tight|tough|short|limited)|(?P<work>work|my job|my workload|my boss)"
    r"(?:'s|\s+is|\s+has been|\s+was|\s+have been)\s+(?:really\s+|super\s+|so\s+|very\s+|"
    r"pretty\s+|a bit\s+|quite\s+|extremely\s+|incredibly\s+)?(?:stressful|crazy|hectic|"
    r"overwhelming|insane|brutal|intense|exhausting|a nightmare|killing me|draining|chaotic)|"
    r"(?P<family>my\s+(?:mom|dad|mother|father|wife|husband|partner|son|daughter|kid|child|"
    r"sister|brother|grandma|grandpa|grandmother|grandfather))\s+(?:is|has been)\s+(?:in "
    r"(?:the )?hospital|sick|ill|recovering from [^,;]+|undergoing [^,;]+))"
)
STATE_MORE = icase(
    r"\b(?:I|we)(?:'m|\s+have\s+been|'re|\s+am)?\s+(?P<v>(?:dealing|struggling|coping|"
    r"living|battling|suffering)\s+(?:with|from)\s+(?:an?\s+|my\s+|some\s+|the\s+)?(?:bad\s+|"
    r"chronic\s+|severe\s+)?(?:insomnia|anxiety|depression|migraines?|back pain|chronic pain|"
    r"an injury|injury|illness|grief|burnout|long covid|covid|cancer|arthritis|asthma|"
    r"diabetes|adhd|ptsd|allergies|a cold|the flu|flu|pain)\b[^,;]*|expecting\s+(?:our|a|my|"
    r"another)\s+(?:first\s+|second\s+|third\s+)?(?:baby|child|kid))|^(?:my|our)\s+(?P<body>"
    r"(?:knee|back|ankle|wrist|shoulder|neck|hip|foot|feet|leg|arm|hand|stomach|head|tooth|"
    r"eyes?)(?:\s+still)?(?:\s*(?:'s been|has been|is|keeps|have been|are))?(?:\s+still)?\s+"
    r"(?:acting up|killing me|hurting|"
    r"hurts|hurt|sore|swollen|bothering me|aching|aches|injured|broken|flaring up|in pain))|"
    r"^(?:[a-z]+ing(?:\s+[a-z]+){0,2}?\s+)?(?:still\s+)?(?P<hurts>(?:hurts|kills)\s+my\s+(?:knee|back|ankle|wrist|"
    r"shoulder|neck|hip|feet|leg|arm|hand|stomach|head|eyes))\b"
)

# an injury verb and the head of what it hit: "broke my favourite teapot" -> "teapot"
_INJURED = icase(
    rf"^{_INJURY}\s+my\s+(?:[a-z-]+\s+){{0,2}}?(?P<head>[a-z-]+)(?=\s+(?:in|on|at|while|when|playing|"
    r"lifting|doing|during|last|this|yesterday)\b|\W*$)"
)


def injured_body(match: re.Match[str] | None) -> re.Match[str] | None:
    """``match`` of :data:`STATE_DID`, unless it is an injury verb whose object is a
    made thing by its most frequent sense in WordNet ("I broke my favourite teapot",
    "I broke my phone"), not a part of the body ("I broke my wrist")."""
    if match is None:
        return None
    hit = _INJURED.match(match.group("v"))
    if hit is not None and first_class(hit.group("head")) == "artifact":
        return None
    return match


def state_said(text: str) -> re.Match[str] | None:
    """The state ``text`` says the speaker is in: being in it (:data:`STATE_BE`), a thing
    done to the body (:data:`STATE_DID`, not to a made thing: :func:`injured_body`) or a
    state said with more words (:data:`STATE_MORE`), first found first; None if none."""
    return STATE_BE.search(text) or injured_body(STATE_DID.search(text)) or STATE_MORE.search(text)
