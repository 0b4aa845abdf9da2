"""A last reading of a first-person sentence that no constraint detector took: does it
still bind later answers?

The detectors of :mod:`.read_constraints` read a constraint into a short value
("no shellfish", "learn Spanish") and need a known domain word. People state
constraints in far more ways ("I treasure my alone time, it keeps me sane", "Lifting
heavy gave me a hernia, so I'm careful now", "It's Lent, so I've given up meat for
now"). This reader looks for the *grammar* of a constraint — a rule word, a value
phrase, a goal verb, a present condition, a cause and its effect on the speaker — and
keeps the whole sentence as the constraint's value, so that its meaning (the read path
compares embeddings) and its scope tags, when it has any, route later requests to it.
Nothing here names a topic: the markers are English function words and the verbs that
state rules, values, goals, conditions and causes — among them a rule the speaker set
("I made myself a rule", "I keep X to myself", a daily habit kept for a reason), a
value said as what should be ("for me X should ..."), a goal whose subject was said
once ("..., and want to keep it that way"), a state of the body or the home ("I'm
deaf", "we just split up", "the doctor put me on X", "my X's been out", "our X
flooded", "she lives with us", a lack for now) and a cause without "because" ("X keeps
me sane", "doing X stopped the Y", "..., so I do X now", "my dog gets anxious when",
"since I'm X, I have to ...").

Not read: "only" of a time or an amount ("I only just got in", "I only have ten
minutes"), a state denied or ended ("I'm not on call this week", "my back doesn't hurt
anymore"), a thing not done ("I didn't call my mom this week"), a state said by
hyperbole ("I'm practically living at the office", "so old it runs on steam", "drowning
in paperwork") or as a thing the speaker is plus a time word ("I'm a professional
procrastinator these days"), a denied state or job as a rule ("I don't live there
anymore"), an "-ic" word that is no condition ("I'm so dramatic": the conditions are a
closed class, "diabetic", "asthmatic", "-phobic" ...) and a fear of a thing of one's own
("terrified of my inbox", not "afraid of heights").

A rule of the speaker's own home is often said with no person at all ("No shoes in the
house.", "Shoes off at the door.", "Lights out by nine on school nights."): a verbless
prohibition, a thing and its particle, a thing kept somewhere, "X only after Y", "X
first, then Y" — read only with some sign that it is a standing rule (a time that
recurs, a place in the home, a place adverb, "always"), never from a quote, a sign or
a notice, and never from an interjection ("No worries", "No idea where ...").
"""

from __future__ import annotations

from cognimem.ingest.extract.clauses import prepare_clause
from cognimem.ingest.extract.collector import Collector
from cognimem.ingest.extract.overstatement import overstates
from cognimem.ingest.extract.patterns import (
    HEAD_END,
    ONLY_NOT_HABIT,
    TRAINING_TO_BECOME,
    gated,
    icase,
    names_occupation,
)
from cognimem.ingest.extract.quips import is_quip
from cognimem.ingest.extract.unwearied import unwearied
from cognimem.ingest.extract.vocabulary import NUMBER_WORDS
from cognimem.ingest.extract.wanted_things import wants_a_character, wants_a_thing
from cognimem.models.knowledge import FactCategory as Cat
from cognimem.text.scope_tags import scope_tags

__all__ = ["FIRST_PERSON", "THEIR_STANCE", "StanceReader"]

# someone of the speaker's, by up to three words: "my parents", "our new landlord", "my
# sister's kids"
_MINE = r"(?:my|our)\s+(?:[\w'-]+\s+){0,2}?[\w-]+"
# a condition had, as the last word of its noun phrase ("a cold", not "a cold brew")
_CONDITION = (
    rf"(?:newborn|baby|[a-z]+itis|gout|flu|fever|cold|infection|condition|disorder|disease)"
    rf"{HEAD_END}"
)
# a word of the speaker's own, without which no stance is read as the speaker's (also
# the learned stance reader's first-person gate, ``benchmarks/stance_reader.py``)
FIRST_PERSON = icase(r"\b(?:I|I'm|I'd|I'll|me|my|we|we're|our|us)\b")
# someone else's stance, said with them as the subject: "My parents refuse to fly",
# "My kids only eat plain pasta at the moment" (theirs, not the speaker's: no constraint;
# also asked by the learned stance reader, ``benchmarks/stance_reader.py``)
THEIR_STANCE = icase(
    rf"^{_MINE}\s+(?:(?:really|just|still|also|always)\s+)?"
    r"(?:refuses?|hates?|loathes?|only|never|won't|prefers?|avoids?|insists?|can't stand|"
    r"dislikes?|loves?|adores?)\b"
)
# "I never thought ...", "I don't know": narration and filler, not rules
_NOT_A_RULE = icase(
    r"\b(?:never|don't|didn't)\s+(?:thought|think|knew|know|expected|expect|imagined|"
    r"realized|realised|been|had|got|felt|saw|believed|forget|forgot|mind|remember|"
    r"want to miss|regret|understand|get it|care)\b|"
    # a state denied or ended is no rule of conduct: "I don't live there anymore", "I don't
    # work for X", "I don't have a cold anymore"
    r"\b(?:never|don't|doesn't|didn't|no longer)\s+(?:live|hurt|ache|work\s+(?:at|for|in|as)|"
    rf"have\s+(?:an?\s+)?{_CONDITION})\b|"
    # a habit of the past: "Back in school I only did the bare minimum"
    r"\b(?:only|always)\s+(?:did|went|had|was|were|got|made|took|ate|drank|wore|used|read|"
    r"(?!(?:need|feed|seed|speed|bleed|breed)\b)[a-z]+ed)\b"
)
# "I don't have the receipt anymore": a thing at hand that is gone, no rule or state
_GONE_AT_HAND = gated(
    r"\b(?:don't|do not|no longer)\s+(?:have|own)\s+(?:the|that|this|those|these|it|them)\b"
)
_RULE = gated(
    r"\b(?:I|we)\s+(?:(?:just|really|absolutely|strictly|simply)\s+)?(?:never|refuse to|"
    rf"always|only(?!\s+(?:{ONLY_NOT_HABIT})\b)|avoid|stay away from|steer clear of|stick to|"
    r"no longer)\b|"
    r"\b(?:my|our)\s+(?:\w+\s+){0,2}rule\b|\brule (?:in|for|at) (?:our|my|this)\b|"
    r"\b(?:I|we)(?:'ve)?\s+(?:made|make|have|set|got)\s+(?:(?:myself|ourselves|it)\s+)?an?\s+"
    r"(?:\w+\s+)?rule\b(?!\s+of\s+thumb)|\b(?:I|we)\s+keep\s+(?:[\w'-]+\s+){1,4}(?:private|secret|quiet|"
    r"separate|to (?:myself|ourselves))\b|"
    # a habit kept for a reason: "I'm in bed by ten every night because ..."
    r"^(?:I|we)(?:'m|'re|\s+(?!went\b|was\b|were\b|did\b|had\b|used\b)[a-z]+)\b[^.;]*"
    r"\bevery\s+(?:single\s+)?(?:day|morning|evening|night|week|weekday|weekend)\b[^.;]*"
    r"\b(?:because|since)\b|"
    r"\bno exceptions\b|\bnon-negotiable\b|,\s*(?:period|ever|at all|no matter what)\s*[.!]?$|"
    r"\b(?:I|we)\s+(?:don't|won't|can't)\s+(?:\w+\s+){0,4}(?:ever|anymore|at all)\b|"
    # a rule the speaker is held to ("the landlord won't allow ..." is someone else's)
    r"\b(?:I'm|we're|I am|we are)\s+not\s+(?:allowed|permitted)\b|"
    # a practice kept so many times a day: "I pray five times a day"
    r"^(?:I|we)\s+(?!(?:went|was|were|did|had|used|got|came|saw|took|made|ate|ran)\b|[a-z]+ed\b)"
    r"[a-z]+\s+(?:[\w'-]+\s+){0,3}(?:once|twice|\w+\s+times)\s+(?:a|an|per|every)\s+(?:day|"
    r"week|night|morning)\b"
)
_VALUE = gated(
    r"\bmatters?\s+(?:\w+\s+){0,3}to\s+(?:me|us)\b|\b(?:important|everything|a big (?:thing|"
    r"deal)|sacred)\s+(?:to|for)\s+(?:me|us)\b|\bmeans?\s+(?:a lot|a great deal|(?:the\s+)?most|"
    r"everything|so much|the world)\s+to\s+(?:me|us)\b|"
    r"\b(?:I|we)(?:'d|\s+would)\s+(?:much\s+)?rather\b|"
    r"\b(?:I|we)\s+(?:really\s+|truly\s+|deeply\s+)?(?:care|value|treasure|cherish|"
    r"believe)\b|\bbugs me\b|\bin my book\b|\bhow I feel\b|"
    r"\bwhat I (?:look for|want most|care about|value)\b|\bcomes? first\b|"
    r"\b(?:my|our) (?:top |number one |first )?priority\b|\bnot who I am\b|"
    r"^(?:for|to)\s+(?:me|us)\b,?\s+(?:\w+\s+){1,4}(?:should|must)\b|"
    r"\bmakes? all the difference\b|\bat the (?:center|centre|heart) of (?:my|our)\b|"
    r"\b(?:central|essential|fundamental|vital)\s+to\s+(?:my|our)\s+(?:life|lives|identity|"
    r"well-?being|sanity|happiness)\b|\b(?:central|essential|fundamental|vital)\s+to\s+who\s+"
    r"(?:I|we)\s+(?:am|are)\b|\b(?:a\s+)?(?:big|huge|central|core)\s+part\s+of\s+(?:my|our)\s+"
    r"(?:life|lives|identity|routine)\b|"
    r"\b(?:over|more than) (?:any|anything|a|an|the)\b.*\bto me\b"
)
# a value said in the past: "X were everything to me as a teenager" holds no more
_PAST_VALUE = icase(
    r"\b(?:was|were)\s+(?:(?:just|really|once|always)\s+)?(?:everything|important|sacred|"
    r"a\s+big\s+(?:thing|deal)|the\s+world)\s+(?:to|for)\s+(?:me|us)\b|"
    r"\b(?:mattered|meant)\s+(?:\w+\s+){0,3}to\s+(?:me|us)\b"
)
_GOAL = gated(
    r"\b(?:I'm|we're)\s+(?:(?:really|currently|still|also|now)\s+)?(?:trying|aiming|"
    # working beside someone or somewhere is no goal, unless it is toward one: "I'm
    # working with Sam on the report", but "I'm working with a coach to get faster"
    r"working(?!\s+(?:with|alongside|at|for|from|as|in|under)\b(?![^.;]*\bto(?:wards?)?\s))|"
    r"hoping\s+to|planning|determined|building|saving|putting|training|studying|prepping|"
    r"preparing|learning|rehabbing|doing a|going for)\b|\b(?:I|we)\s+(?:really\s+)?(?:want|"
    r"plan|intend|aim)\s+(?:to|the|my|our|a)\b|\b(?:I|we)\s+(?:really\s+)?hope\s+to\b|"
    r"\b(?:my|our)\s+(?:\w+\s+)?(?:aim|goal|plan|dream|resolution)\b|"
    r"\b(?:I|we)(?:'d|\s+would) love to\b|"
    r"^(?:I|we)\b[^,;]*\band\s+(?:really\s+)?(?:want|hope|plan|intend|mean)\s+to\b"
)
# a state said by when it holds: "I'm on nights right now", "money is tight these days"
_STATE_NOW = gated(
    r"\b(?:right now|at the moment|these days|currently|for now|for the next|lately|"
    r"this (?:month|week|quarter|semester)|since (?:last|the)|anymore|barely|"
    r"in the middle of|(?:weeks?|months?) (?:old|ago))\b"
)
# ... but not a mood of the moment, which binds no later answer ("I'm so excited right
# now", "bored these days", a boast: "I'm on fire at work lately", "killing it"),
# unlike a condition ("stressed", "broke", "sick")
_MOOD_NOW = icase(
    r"^(?:I'm|we're|I am|we are)\s+(?:(?:so|really|super|pretty|kind of|a bit|just|very)\s+)*"
    r"(?:happy|excited|thrilled|ecstatic|frantic|bored|giddy|pumped|hyped|psyched|grumpy|"
    r"cranky|curious|nostalgic|jealous|proud|on fire|on a roll|in the zone|killing it|"
    r"crushing it|nailing it|on top of the world|on cloud nine)\b"
)
# ... nor a thing the speaker is said to be, a metaphor as often as not: "I'm a
# professional procrastinator these days", "my desk is my second home right now"
_NOUN_PREDICATE = icase(
    rf"^(?:I'm|I am|we're|we are|{_MINE}(?:'s|\s+is|\s+are))\s+"
    r"(?:(?:currently|now|still|pretty much|kind of|sort of|officially|basically)\s+)?"
    r"(?:an?|the|my|our)\s+(?!(?:only|sole|main|primary)\b)"
)
# a condition of the body or mind said as an adjective: a closed class, since most "-ic"
# words are moods, praise or blame ("I'm fantastic", "so dramatic", "pathetic at chess")
_CONDITION_ADJECTIVE = (
    r"(?:(?:pre-?)?diabetic|asthmatic|epileptic|dyslexic|dyspraxic|an(?:a)?emic|autistic|"
    r"arthritic|hypo(?:glyc)?(?:a)?emic|hyperglyc(?:a)?emic|narcoleptic|schizophrenic|"
    r"(?:para|quadri|tetra|hemi)plegic|anorexic|bulimic|[a-z]+phobic)"
)
# a fear of a kind of thing ("scared of heights", "afraid to fly"); one of a thing of
# the speaker's ("terrified of my inbox") is a figure of speech, "I'm afraid I ..." a
# politeness
_FEAR = (
    r"(?:terrified|scared|afraid)(?=\s+(?:of|to)\s+(?!(?:my|our|your|his|her|their|this|"
    r"that|these|those)\b))"
)
_STATE = icase(
    r"\b(?:I'm|we're|I've been|we've been)\s+(?:(?:completely|really|so|totally|terribly|"
    r"super|still|partially|legally)\s+)?"
    rf"(?:{_CONDITION_ADJECTIVE}|{_FEAR}|allergic|intolerant|pregnant|expecting|nursing|"
    r"breastfeeding|fasting|grieving|exhausted|burned out|burnt out|broke|injured|"
    r"recovering|on call|on probation|going through|in debt|[a-z]*blind|deaf|disabled|"
    r"hard of hearing)\b|"
    # a change of life just made: a breakup, a loss
    r"\b(?:I|we)\s+(?:just|recently)\s+(?:broke up|split up|separated|got divorced|lost (?:my|"
    r"our))\b|\bput (?:me|us) on\b|"
    # someone who now shares the speaker's home
    r"\b(?:lives|is living|has been living|is staying|moved in)\s+with\s+(?:me|us)\b|"
    rf"\b(?:I|we)\s+(?:have|have got)\s+(?:got\s+)?(?:an?\s+)?{_CONDITION}|"
    r"\b(?:my|our)\s+(?:[\w'-]+\s+){0,2}[\w-]+(?:'s\s+been|'s|\s+(?:got|is|was|has been))\s+"
    r"(?:\w+\s+)?(?:stolen|suspended|expired|cancel(?:l)?ed|broken|dead|flooded|out|in the "
    r"shop|in the hospital)\b|\b(?:my|our)\s+(?:[\w-]+\s+){1,2}?(?:flooded|broke down|died|"
    r"burst|caught fire)\b|"
    # a part of the body still mending: "my knee is still healing", "my back's acting up"
    rf"\b{_MINE}(?:'s|'re|\s+(?:is|are))\s+(?:still\s+)?"
    r"(?:healing|recovering|mending|sore|swollen|sprained|inflamed|acting up|playing up)\b|"
    # what is old or frail limits what it can take: "my laptop is an old Mac"
    rf"\b{_MINE}(?:'s|'re|\s+(?:is|are))\s+(?:an?\s+)?"
    r"(?:(?:really|very|quite|pretty|so)\s+)?(?:old|elderly|ancient|outdated|fragile|frail)\b"
    r"(?!\s+enough)|"
    # a present state and how long it lasts: "I'm on nights for the rest of the month",
    # "I've got a cast on for another month", "I'm covering for them till August"
    r"\b(?:I'm|we're|I am|we are|I've got|we've got|I have|we have)\b[^.;]*?\bfor\s+(?:another|"
    r"the next|the rest of(?:\s+the)?|a few more|\w+\s+more)\s+(?:\w+\s+)?(?:days?|weeks?|months?|"
    r"years?|term|semester|season)\b|\b(?:I'm|we're|I am|we are)\b[^.;]*?\bfor the (?:year|"
    r"month|week|season|summer|winter|term)\b|\b(?:I'm|we're|I am|we are)\s+(?:[\w'-]+\s+){1,5}?"
    r"(?:until|till)\s+\w|"
    # a burden still carried, a body part that limits: "we're still paying off the
    # wedding", "off my feet with a bad ankle", "down to my last hundred"
    r"\b(?:I'm|we're|I am|we are)\s+still\s+(?:paying (?:off|back)|recovering from|getting over|"
    r"dealing with|sorting out|catching up on)\b|\bwith\s+(?:a|an|my|our)\s+(?:bad|sore|broken|"
    r"twisted|sprained|pulled|torn|stiff|injured|dodgy|weak)\s+[a-z]+\b|"
    r"\bdown to (?:my|our) last\b|"
    # what hit the speaker's means, what someone has them on, what they ran out of
    r"\b(?:my|our)\s+(?:[\w'-]+\s+){0,2}(?:took|has taken|have taken)\s+an?\s+(?:\w+\s+)?hit\b|"
    r"\b(?:has|have|had)\s+(?:me|us)\s+on\s+(?:an?|the)\b|"
    r"\b(?:I'm|we're|I am|we are)\s+(?:all\s+)?out of\s+"
    r"(?!here\b|luck\b|breath\b|curiosity\b|ideas\b|my mind\b|the (?:woods|loop)\b)\w|"
    # a term that runs out: "my passport expires in two months", "our lease ends in May"
    rf"\b{_MINE}\s+(?:expires?|runs? out|lapses?|ends?|is due|"
    r"are due)\s+(?:in|on|next|this|soon|by|before|at the end)\b"
)
# a state denied or ended, or a thing not done, is no state: "I'm not on call this week",
# "I didn't call my mom this week", "my back doesn't hurt anymore" (a lack for now is one:
# "we don't have a car at the moment")
_DENIED_STATE = icase(
    r"\b(?:I'm|we're|I am|we are)\s+(?:(?:just|really|actually|definitely)\s+)?(?:not|no longer)"
    r"\s+(?!(?:allowed|permitted|able|going|supposed)\b|[a-z]+ing\b)|"
    # (not "I haven't been able to sleep lately", "I haven't had a day off since May")
    r"\b(?:I|we)\s+(?:didn't|did not|haven't|have not|hadn't|had not)\s+(?!been\b|had\b)|"
    r"\b(?:don't|doesn't|do not|does not|isn't|aren't|is not|are not|'s not|'re not|'m not|"
    r"am not)\b[^.;]*\b(?:anymore|any more)\b|\bno longer\b|"
    r"\b(?:don't|doesn't|do not|does not)\s+(?:really\s+)?(?:hurt|ache|bother)\b"
)
# a state said by hyperbole is a way of talking, not a state to act on: "I'm basically
# living at the office these days", "I'm literally dying right now"
# "my laptop is so old it runs on steam", "my suitcase has seen more than I have"
_HYPERBOLE = icase(
    r"\b(?:basically|practically|literally|virtually)\b|\bat this point\b|"
    # buried in work, not in debt: "I'm drowning in paperwork this week"
    r"\b(?:drowning|swimming|buried|snowed under|neck-deep|knee-deep|up to my (?:neck|ears|"
    r"eyeballs))\s+(?:in|under|with)\s+(?!(?:\w+\s+)?(?:debt|bills|loans)\b)|"
    r"\beating (?:me|us) alive\b|"
    r"\bso\s+[a-z]+\s+(?:that\s+)?(?:I|it|we|my|you|they|he|she)\s+(?:could|would|can|can't|"
    r"might|runs?|needs?|has|have|had|was|is)\b|"
    r"\b(?:[a-z]{2,}er|more(?:\s+[\w'-]+){0,5}?)\s+than\s+(?:me|I|us|we)\b"
)
# "X stopped my ...", "Y made our ...": an effect on the speaker needs no connective
_EFFECT_ON_ME = gated(
    r"\b(?:made|makes|gave|gives|helped|helps|stopped|stops|fixed|cured|cut|cleared|kills|"
    r"killed|wrecked|lowered|doubled|calmed|lifted|saved|ruined|improved|got)\s+"
    r"(?:me|my|us|our)\b|\bis (?:how|why) (?:I|we)\b|\bthe only reason (?:I|we)\b|"
    # "Traditions keep us close" (not "keep me posted")
    r"^\w+(?:\s+\w+)?\s+(?:keeps?|kept)\s+(?:me|us)\s+(?!posted|updated|informed|waiting|"
    r"company|in the loop)\w+|"
    # the speaker's own doing and what it changed: "Taking X with Y stopped the Z"
    r"^[a-z]+ing\s+(?:my|our|me|us)\b[^,;]{0,60}?\b(?:stopped|fixed|cured|helped|cleared|"
    r"eased|calmed|improved|ruined|triggered|lowered)\b|"
    # a behaviour changed by what happened: "..., so I keep it to one now"
    r"\s(?:so\s+now\s+(?:I|we)\b|so\s+(?:I|we)\s+(?:\w+\s+){1,6}?now\b)|"
    # what sets off a condition in one the speaker looks after: "my dog gets anxious when"
    r"\b(?:my|our)\s+(?:\w+\s+){0,2}(?:gets?|becomes?|is|are)\s+(?:really\s+|very\s+|so\s+)?"
    r"(?:[a-z]+ous|[a-z]+ed|sick|upset|ill|restless|aggressive)\s+(?:when(?:ever)?|if)\b|"
    # ... or by what sets it off: "my cat gets stressed by loud noises"
    r"\b(?:my|our)\s+(?:\w+\s+){0,5}?(?:gets?|becomes?)\s+(?:really\s+|very\s+|so\s+|easily\s+)?"
    r"(?:[a-z]+ous|[a-z]+ed|sick|upset|restless|aggressive)\s+(?:by|around|during|at|in)\b|"
    # a duty that follows from how things stand: "Since I'm self-employed, I have to ..."
    r"^(?:because|since|as|being)\b[^,;]{3,80},\s*(?:I|we)\s+(?:(?:now|still|always)\s+)?(?:have "
    r"to|must|need to|can't|cannot|can only)\b"
)
# a liking said as a superlative, not a cause: "nothing makes me happier than ..."
_SUPERLATIVE_LIKING = gated(r"\bnothing\s+makes\s+(?:me|us)\s+(?:happier|happy|smile)\b")
# "it makes me happy", "your help gave me strength": a reaction to something said, whose
# cause is a pronoun, is not a cause the speaker will act on
_REACTION = icase(r"^(?:it|that|this|which|you|your|their|his|her|its)\b")
# a standing dislike said as what it does to the speaker: "Plastic waste really bothers me"
_BOTHERS_ME = gated(
    r"\b(?:really\s+|truly\s+|deeply\s+|always\s+)?(?:bothers|annoys|upsets|irritates|"
    r"offends|frustrates|disgusts)\s+(?:me|us)\b"
)
# small talk that reads like a stance: "I'd love to hear more", "I can't believe it"
_SMALL_TALK = gated(
    r"\b(?:love to|like to|want to|trying to)\s+(?:hear|see|know|chat|talk|catch up|figure "
    r"out|decide|remember|understand|think|say|meet (?:you|up|your|with you))\b|"
    r"\bcan't (?:believe|wait)\b|"
    r"\b(?:I'll|let me) (?:think|know|get back)\b|\bthank|\bfan of\b"
)
# "we don't have a car at the moment": a lack for now binds later answers, even when
# the detectors read what is lacked (a possession) from it
_LACK_FOR_NOW = icase(
    r"\b(?:don't|do not|can't|cannot|no longer)\s+(?:have|use|get|access)\b.*\b(?:right now|"
    r"at the moment|for now|currently|these days|this (?:week|month))\b"
)
_CAUSE = gated(
    r"\b(?:so|because|since|ever since|after|once|that's why|is how|is why|the only "
    r"(?:reason|thing)|thanks to|if)\b"
)
_EFFECT = gated(
    r"\b(?:makes?|made|gives?|gave|helped|helps|stopped|stops|fixed|fixes|cured|cut|cuts|"
    r"cleared|kills?|killed|wrecked|wrecks|wrecking|lowered|doubled|dropped|calmed|lifted|"
    r"triggers?|triggered|got (?:me|my)|left me|taught|keeps? me|saved|ruined|improved|"
    r"crash|get|feel|felt|sleeping|sleep|happier|better|worse|done with|careful|paranoid)\b"
)


# ---- a rule of the home said with no person ("No shoes in the house.")
# the main clause (before a subordinate one) has a finite verb: a report, not a slogan
_FINITE = icase(
    r"\b(?:is|are|was|were|am|be|been|has|have|had|do|does|did|will|would|can|could|shall|"
    r"should|may|might|must|went|came|got|took|made|saw|left|ran|ate|said|found|gave|felt|"
    r"kept|knew|thought)\b|\w'(?:re|ll|d|ve)\b"
)
_SUBORDINATE = gated(
    r"\b(?:until|till|unless|when|whenever|while|because|once|if|so|before|after)\b"
)
# a time that recurs or a place: what makes a slogan a standing rule ("No school
# tomorrow" is news)
_NUMBER = (
    rf"(?:\d{{1,2}}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)?|{'|'.join(NUMBER_WORDS[:12])}|noon|"
    r"midnight)"
)
_STANDING = icase(
    rf"\b(?:after|before|past|until|till|by)\s+(?:{_NUMBER}|dark|sunset|sundown|dinner|"
    r"lunch|breakfast|meals?|bed|bedtime|school|work)\b|"
    r"\bon\s+(?:weeknights|weekdays|weekends|school nights|work nights|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days)\b|"
    r"\b(?:at|during|over|before|after)\s+(?:the\s+)?(?:night|meals?|mealtimes?|dinner|lunch|"
    r"breakfast)\b|\b(?:until|before|unless)\s+(?:[\w'-]+\s+){1,3}(?:is|are|'s)\s+(?:done|"
    r"finished|over)\b|\b(?:indoors|inside|outdoors|upstairs|downstairs|here)\b|"
    r"\b(?:in|at|on|into|inside|past|from|off|near|around)\s+(?:the|this|that)\b"
)
# news, a report, a quote or a sign: not a rule of the speaker's
_NOT_HOUSE_RULE = gated(
    r"[\"“”]|\b(?:sign|signs|notice|poster|label|sticker|says|said|reads|printed|written)\b|"
    r"\b(?:today|tonight|tomorrow|yesterday|yet|as usual|anymore|again|this (?:morning|"
    r"afternoon|evening|week|weekend|month|year)|you|your)\b|"
    r"^nothing\s+(?:I|I'd|we|makes|beats|compares|says|like)\b|"
    r"^(?:no|nothing)\s+(?:worries|way|problem|problems|idea|clue|luck|thanks|doubt|kidding|"
    r"wonder|matter|chance|rush|offen[cs]e|pressure|biggie|joke|comment|big deal|surprise|"
    r"need|one|body)\b"
)
# a prohibition as a slogan: "No shoes in the house", "Nothing sugary after eight"
_NO_SLOGAN = icase(r"^(?P<no>no|nothing)\s+\S")
# "Dogs aren't allowed upstairs", "Nobody smokes indoors here"
_NOT_ALLOWED = gated(
    r"^(?!no\b)[^,;]*\b(?:isn't|aren't|is not|are not)\s+(?:allowed|permitted)\b|"
    r"^(?:nobody|no one)\s+(?!(?:was|were|did|had|has|came|went|knew|saw|said|got|called|"
    r"showed|turned)\b)[a-z]+s\b|"
    r"\b(?:get|gets)\s+no\s+[\w-]+\s+(?:until|before|after|unless|on|at|during)\b"
)
# what is kept where or when: "Shoes off at the door", "Dessert only after vegetables",
# "Homework first, then play", "The cat stays indoors at night", "..., always",
# "..., for everyone"
_KEPT = gated(
    r"^(?!\w+(?:ss|us|is)\b)[a-z]+s\s+(?:off|out|away|on|down)\s+(?:[\w'-]+\s+){0,3}?(?:at|by|"
    r"before|after|during|until|in|on)\b|"
    r"^[a-z]+(?:\s+[a-z]+)?\s+only\s+(?:after|before|on|at|in|with|once)\b|"
    r"^[a-z]+(?:\s+[a-z]+)?\s+first,?\s+(?:and\s+)?then\b|"
    r"^(?:the\s+)?[a-z]+\s+stays?\s+(?:off|out|in|indoors|inside|outside|away|home|upstairs|"
    r"downstairs)\b|"
    r",\s*(?:always|every (?:time|day|night)|no exceptions|for everyone|for all)\s*[.!]?$|"
    r",\s*never\s+(?:on|in|at|after|before|during)\b"
)


def house_rule(text: str) -> bool | None:
    """The polarity of a rule of the speaker's home said with no person, as its whole
    sentence is kept ("No shoes in the house" is true: the value says "no"; "Dogs
    aren't allowed upstairs" is false), or None when ``text`` states none."""
    if _NOT_HOUSE_RULE.search(text):
        return None
    main = _SUBORDINATE.split(text, maxsplit=1)[0]
    if _NOT_ALLOWED.search(text) and _STANDING.search(text):
        return False
    if _FINITE.search(main):
        return None
    slogan = _NO_SLOGAN.search(text)
    if slogan and _STANDING.search(text):
        return slogan.group("no").lower() == "no"  # "nothing ..." is said against
    if _KEPT.search(text):
        return True
    return None


class StanceReader(Collector):
    """Reads a constraint's grammar from a whole first-person sentence."""

    def _stance(self, text: str, evidence: str, *, read: bool) -> bool:
        """A constraint read from ``text`` when it states one in a form the detectors
        did not read; the whole sentence is its value. When the detectors ``read``
        other facts from it, only a cause and its effect is added ("Joining the club is
        how I met my friends" is an event and a cause)."""
        if len(text) > 240 or (not read and is_quip(text)):  # nothing read: a joke?
            return False
        category = self._kind(text) if FIRST_PERSON.search(text) else None
        if category is None:
            return self._house_rule(text, evidence)
        if read and category is not Cat.CAUSAL and not _LACK_FOR_NOW.search(text):
            return False
        clause = prepare_clause(text, evidence, self.ref)
        if clause is None:
            return False
        tags = scope_tags(text.replace("-", " "))
        predicate = tags[0] if tags else "general"
        self.add(clause, category, predicate, text, tags=tags, confidence=0.6, timing="window")
        return True

    def _house_rule(self, text: str, evidence: str) -> bool:
        """A rule of the home said with no person, kept as the whole sentence with its
        polarity (a prohibition is against what it names)."""
        polarity = house_rule(text)
        clause = None if polarity is None else prepare_clause(text, evidence, self.ref)
        if polarity is None or clause is None:
            return False
        tags = scope_tags(text.replace("-", " "))
        predicate = tags[0] if tags else "home"
        value = text.rstrip(" .!")
        self.add(clause, Cat.POLICY, predicate, value, polarity=polarity, tags=tags,
                 confidence=0.6, timing="window")  # fmt: skip
        return True

    @staticmethod
    def _kind(text: str) -> Cat | None:
        if _SMALL_TALK.search(text) or _GONE_AT_HAND.search(text) or THEIR_STANCE.match(text):
            return None
        if overstates(text) or _SUPERLATIVE_LIKING.search(text):
            return None  # "in meetings since the Stone Age", "nothing makes me happier than"
        training = TRAINING_TO_BECOME.search(text)
        if training and not names_occupation(training.group("role")):
            return None  # "training to be a ..." with no occupation: a quip
        if _REACTION.search(text) is None and (
            (_CAUSE.search(text) and _EFFECT.search(text)) or _EFFECT_ON_ME.search(text)
        ):
            return Cat.CAUSAL
        if _RULE.search(text) and not _NOT_A_RULE.search(text):
            return None if unwearied(text) == "" else Cat.POLICY  # "I never tire": none
        if _VALUE.search(text) or (_REACTION.search(text) is None and _BOTHERS_ME.search(text)):
            # "I'd rather not go out tonight": one evening, no value (the collector)
            return None if _PAST_VALUE.search(text) else Cat.VALUE
        if _GOAL.search(text):
            # "I want a Tesla", "I'd love to be the kind of person who ...": no goal
            return None if wants_a_thing(text) or wants_a_character(text) else Cat.GOAL
        now = (
            _STATE_NOW.search(text)
            and _NOUN_PREDICATE.search(text) is None
            and _MOOD_NOW.search(text) is None
        )
        if (
            (now or _STATE.search(text))
            and _HYPERBOLE.search(text) is None
            and (_DENIED_STATE.search(text) is None or _LACK_FOR_NOW.search(text))
        ):
            return Cat.STATE
        return None
