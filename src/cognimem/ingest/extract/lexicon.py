"""How the rule extractor looks words up: preference domains and the trigger words,
over the lists of :mod:`.vocabulary` (the scope tags are :mod:`cognimem.text.scope_tags`).

Lists that patterns are built from become one compiled alternation each (see
:func:`alternation`); lists that are only looked up (preference domains, event nouns)
go through a :class:`~cognimem.text.tokens.PhraseIndex`, one dictionary probe per word.
Either way a sentence is scanned once per list, never once per word.

:func:`domain_of` names the preference domain of an object ("sushi" is food).
:data:`TRIGGERS` lists, per detector, the words without which it cannot fire.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from cognimem.ingest.extract.vocabulary import (
    BODY_PARTS,
    COLORS,
    CONDITIONS,
    DIET_LABELS,
    FEELING_WORDS,
    JOBS,
    NUMBER_WORDS,
    PETS,
    PREFERENCE_DOMAINS,
    RELATIONS,
    RELIGIONS,
)
from cognimem.text.tokens import PhraseIndex, tokens, words

__all__ = ["DOMAIN_WORDS", "TRIGGERS", "alternation", "domain_of"]


def alternation(phrases: Iterable[str]) -> str:
    """One regex alternation for ``phrases``, longest first, spaces matching any run of
    whitespace (the caller adds boundaries and the group)."""
    unique = sorted(set(phrases), key=lambda p: (-len(p), p))
    return "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in unique)


# ------------------------------------------------------------------- preference domains

# a word or phrase -> the preference domain it puts an object in ("sushi" -> "food")
DOMAIN_WORDS: dict[str, str] = {w: d for d, ws in PREFERENCE_DOMAINS.items() for w in ws}
_DOMAIN_INDEX = PhraseIndex(DOMAIN_WORDS)
_COLOR = re.compile(rf"^(?:the\s+colou?r\s+)?(?P<v>{alternation(COLORS)})$", re.IGNORECASE)


def domain_of(text: str) -> str | None:
    """The preference domain of an object: its last domain word decides ("coffee ice
    cream" is food), a bare colour is ``color``."""
    if _COLOR.match(text.strip()):
        return "color"
    hits = _DOMAIN_INDEX.find(text)
    return DOMAIN_WORDS.get(hits[-1][1]) if hits else None


# ------------------------------------------------------------------- triggers


def _head_words(phrases: Iterable[str]) -> frozenset[str]:
    return frozenset(p.split()[-1] for p in phrases)


# A detector (in the ``read_*`` modules) runs only when its clause has one of these
# words: each set must hold a word that every one of the detector's patterns needs (its
# verb, its keyword, the head noun of its word list). Adding a pattern means adding its
# word here.
TRIGGERS: dict[str, frozenset[str]] = {
    "allergy": frozenset(
        words(
            """allergic, allergy, allergies, intolerant, intolerance, celiac, coeliac,
            can't, cannot, can, mustn't, must, allowed"""  # "my son can't have X, so ..."
        )
    ),
    "diet": frozenset(
        words("diet, eat, eating, eats, consume")
        + tuple(t for label in DIET_LABELS for t in tokens(label))
    ),
    "policy": frozenset(
        words(
            """never, don't, can't, won't, shouldn't, mustn't, must, try, refuse, avoid,
            always, make, stop, please, unable, able, steer, stay"""
        )
    ),
    "identity": frozenset(
        words(
            """name, name's, call, calls, called, go, goes, known, aka, nickname,
            nickname's, short, pronouns, born, turned, it's, this, i'm, use, speak,
            fluent"""
        )
    ),
    "location": frozenset(
        words(
            """live, lives, lived, living, reside, resides, based, staying, settled, moved,
            relocated, moving, relocating, left, from, grew, born, raised, come, been,
            home, rent, share, renting, sharing"""
        )
    ),
    "occupation": _head_words(JOBS)
    | frozenset(
        words(
            """work, works, worked, working, job, retired, student, study, studying, studies,
            majoring, teach, taught, quit, left, laid, fired, attend, phd, degree, masters,
            master's, doctorate, bachelor's, joining, starting, promoted, fly, drive, write,
            code, consult, freelance, freelancing, moonlight, play, run, manage, head, deliver,
            director, vp, president, chief, hired, start, became, become, accepted,
            internship, into, fall, autumn, still, employer"""
        )
    ),
    "relationship": frozenset(
        t for w in (*RELATIONS, *PETS) for t in (*tokens(w), *tokens(w + "s"))
    )
    | frozenset(words("named, called, married, engaged, name, name's, boys, girls, twins, pet")),
    "others": frozenset((*words("named, called, at, turned"), *NUMBER_WORDS)),
    "possession": frozenset(
        words("have, own, owns, bought, got, purchased, picked, leased, sold, gave, rid, drive")
    ),
    "event": frozenset(
        words(
            """went, took, visited, attended, started, finished, completed, joined, traveled,
            travelled, flew, drove, trip, volunteered, signed, won, ran, graduated, met,
            adopted, back, returned, celebrated, got"""
        )
    ),
    "goal": frozenset(
        words(
            """want, wanna, hope, hoping, plan, planning, intend, aim, aiming, need, try,
            trying, like, love, would, i'd, we'd, working, determined, saving, training,
            learning, studying, goal, resolution, dream, priority, going"""
        )
    ),
    "value": frozenset(
        words(
            """care, passionate, feel, only, important, everything, matter, matters, comes,
            come, first, value, believe, stand"""
        )
        + RELIGIONS
    ),
    "state": frozenset(
        words(
            """pregnant, expecting, sick, ill, injured, hospitalized, hospital, cast, crutches,
            bed, medication, meds, antibiotics, chemo, insulin, blood, recovering, healing,
            diabetic, immunocompromised, undergoing, getting, going, weather, unemployed,
            out, between, laid, broke, debt, budget, grieving, stressed, overwhelmed, burned,
            burnt, swamped, anxious, taking, pregnant, fractured, sprained, tore, twisted,
            hurt, dislocated, pulled, strained, had, diagnosed, caught, tested, lost, fired,
            let, have, got, money, cash, finances, work, job, workload, boss, dealing,
            struggling, coping, living, battling, suffering, knee, back, ankle, wrist,
            shoulder, neck, hip, foot, feet, leg, arm, hand, stomach, head, tooth, eye, eyes,
            mom, dad, mother, father, wife, husband, partner, son, daughter, kid, child,
            sister, brother, grandma, grandpa, grandmother, grandfather, i'm, we're"""
        )
    ),
    "health": frozenset(t for w in (*CONDITIONS, *BODY_PARTS) for t in tokens(w))
    | frozenset(
        words(
            """sick, ill, nauseous, queasy, dizzy, lightheaded, light-headed, congested,
            achy, feverish, run, weather, exhausted, tired, worn, fatigued, drained,
            sleep-deprived, sore, coughing, sneezing, wheezing, throwing, vomiting,
            limping, sleeping, breathing, swallowing, sleep, feeling, awful, terrible,
            crappy, lousy, rough, horrible, miserable, battling, fighting, suffer,
            suffering, struggle, struggling, living, treated, remission"""
        )
    )
    | frozenset(t for w in FEELING_WORDS for t in tokens(w)),
    "choice": frozenset(
        words(
            """avoid, steer, dislike, hate, detest, loathe, despise, can't, don't, have,
            prefer, rather, sooner, refuse, won't, will, never, skip,
            stay, keep, not, done, staying, steering, avoiding, cutting, skipping, isn't,
            doesn't, choose, pick, go, opt, stick, insist, swear, need, make, always,
            drawn, all, sticking, only, looking, going, opting, exclusively, aren't, no-go,
            go, dealbreaker, deal-breaker, pass, off-limits, off, out, bore, bores, bored,
            work, agree, sit, must, must-have, non-negotiable, essential, go-to, default,
            rule, suit, suits, works, because, since, cause, cuz, due, fail, exception,
            religiously, single, exceptions, when, whenever, while, once, unless, tend,
            gone, comfortable, no, nothing, please, pls, banned, forbidden, drive, drives,
            send, sends, something, thing, better, cut, avoided, steered, stayed, kept,
            fan, sick, tired, fed, find, liked, enjoyed, cared, hated, disliked, detested,
            loathed, despised, mix, along, nightmare, pain, torture, hell, struggle, none,
            suggest, recommend, try, tend, best, point, leave, draw, line, no-no, worth,
            thank, favour, favor, lean, gravitate, believer, can, one, nerves, head, winds,
            wind, stresses, stress, wears, wear, puts, put, enough, fill, thanks, way,
            favourite, favorite, waste, without, miss, berth, adore, love, into, sucker,
            obsessed, crazy, mad, nuts, wild, passionate, hooked, jam, weakness, passion, pleasure,
            lover, buff, fiend, junkie, fanatic, less, fewer, wary, suspicious, sworn, swore,
            over, partial, loyal, against, opposed, wean, weaning, gave, quit, kicked, beats,
            tops, compares, resist, spot, fondness, sooner, die, count, catch, leaves, give,
            person, people, someone, type, except, weeknights, weekdays, weekends,
            usually, normally, generally, typically, mostly, often, usual, regular,
            standard, comfort, fallback, staple, more, turn, say, choice, pick, order,
            option, happiest, most, than, decline, refrain, aversion, distaste, averse,
            uncomfortable, willing, unwilling, bane,
            appeal, turn-off, turnoff, overwhelm, overwhelms"""
        )
    ),
    "preference": frozenset(
        words(
            """love, like, likes, enjoy, adore, prefer, hate, dislike, detest, loathe, stand,
            care, fan, into, obsessed, crazy, sucker, hooked, big, enough, person, lover,
            addict, nerd, junkie, jam, thing, weakness, pleasure, go-to, place, cup, vibe,
            kryptonite, favorite, favourite, fave, fav, liked, loved, enjoyed, been, every,
            most, each, daily, regularly, week, play, do, practice, practise, drink, weekends,
            spare, free, sundays, saturdays"""
        )
    ),
}
