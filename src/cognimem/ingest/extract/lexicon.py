"""How the rule extractor looks words up: the scope-tag vocabulary, preference domains
and the trigger words, over the lists of :mod:`.vocabulary`.

Lists that patterns are built from become one compiled alternation each (see
:func:`alternation`); lists that are only looked up (scope tags, preference domains,
event nouns) go through a :class:`PhraseIndex`, one dictionary probe per word. Either
way a sentence is scanned once per list, never once per word.

:func:`scope_tags` maps text to tags from :data:`SCOPE_TAGS`, in order of first mention;
the same function can classify a query's domain, so constraints and queries meet on one
vocabulary. :func:`domain_of` names the preference domain of an object ("sushi" is
food). :data:`TRIGGERS` lists, per detector, the words without which it cannot fire.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from cognimem.ingest.extract.schema import SCOPE_TAGS
from cognimem.ingest.extract.vocabulary import (
    COLORS,
    COUNTRIES,
    DIET_LABELS,
    JOBS,
    PETS,
    PREFERENCE_DOMAINS,
    RELATIONS,
    RELIGIONS,
    words,
)

__all__ = [
    "DOMAIN_WORDS",
    "SCOPE_TAGS",
    "TRIGGERS",
    "PhraseIndex",
    "alternation",
    "domain_of",
    "scope_tags",
    "tokens",
]

_TOKEN = re.compile(r"[a-z0-9&]+(?:['.-][a-z0-9&]+)*")


class PhraseIndex:
    """Finds known phrases of one to a few words in a text by dictionary lookup: one
    pass over the words, longest phrase first at each word. Much cheaper than one
    regex alternation over hundreds of phrases."""

    def __init__(self, phrases: Iterable[str]) -> None:
        self.phrases = frozenset(" ".join(_TOKEN.findall(p.lower())) for p in phrases)
        longest: dict[str, int] = {}
        for phrase in self.phrases:
            words = phrase.split(" ")
            longest[words[0]] = max(longest.get(words[0], 0), len(words))
        self._longest = longest

    def find(self, text: str) -> list[tuple[int, str]]:
        """``(word index, phrase)`` for each phrase found, left to right, not overlapping."""
        words = _TOKEN.findall(text.lower())
        found: list[tuple[int, str]] = []
        i = 0
        while i < len(words):
            span = self._longest.get(words[i], 0)
            for n in range(min(span, len(words) - i), 0, -1):
                phrase = " ".join(words[i : i + n])
                if phrase in self.phrases:
                    found.append((i, phrase))
                    i += n
                    break
            else:
                i += 1
        return found


def alternation(phrases: Iterable[str]) -> str:
    """One regex alternation for ``phrases``, longest first, spaces matching any run of
    whitespace (the caller adds boundaries and the group)."""
    unique = sorted(set(phrases), key=lambda p: (-len(p), p))
    return "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in unique)


# ------------------------------------------------------------------- scope tags

# tags (space separated) -> the words and phrases that carry them
_TAG_SPEC: dict[str, str] = {
    "food": """food, foods, eat, eating, ate, meal, meals, restaurant, restaurants, dinner,
        lunch, breakfast, snack, snacks, recipe, recipes, cuisine, dish, dishes, menu, drink,
        drinking, coffee, tea, wine, beer, chocolate, spicy food, fish, chicken, eggs, egg,
        cheese, bread, peanuts, peanut, nuts, nut, tree nuts, shellfish, shrimp, prawns,
        lobster, crab, sesame, strawberries, seafood, cook, cooking, baking, bake, olives,
        mushrooms, onions, garlic, tomatoes, potatoes, spicy, sweet, produce, groceries,
        takeout, coffee shop, cafe, bakery, bar""",
    "food health": "caffeine, energy drinks, decaf",
    "food diet": """meat, red meat, pork, beef, dairy, milk, bacon, animal products,
        vegetarian, vegan, pescatarian, keto, paleo, plant-based, junk food, fast food,
        carbs, calories""",
    "food diet health": "gluten, wheat, lactose, alcohol, soy",
    "diet food health": "sugar, sweets, salt, sodium",
    "diet": "diet, dieting, portion, portions, fasting",
    "health": """health, healthy, sick, ill, illness, pain, back pain, migraine, migraines,
        headache, headaches, anxiety, anxious, panic attacks, depression, depressed, stress,
        stressed, stressful, burned out, burnt out, burnout, overwhelmed, sleep, sleeping,
        insomnia, injury, injured, cold, flu, covid, fever, nauseous, nausea, dizzy,
        recovering, recovery, mental health, knee, eyesight, vision, heartburn, acid reflux,
        bloated, rash, hives, itchy, asthma attack, allergic reaction, nervous, accident,
        panic, panic attack, bed, sleepy, drowsy, acne, breakouts""",
    "health medical": """surgery, doctor, hospital, medication, medications, medicine, meds,
        prescription, antibiotics, diagnosed, pregnant, pregnancy, broke my, broken,
        fracture, fractured, sprained, crutches, cast, physical therapy, physio, chemo,
        chemotherapy, cancer, insulin, inhaler, blood pressure, concussion, stitches, asthma,
        expecting a baby, expecting our first, expecting our second,
        epipen, penicillin, therapist, therapy""",
    "health medical diet": "diabetes, diabetic, celiac, coeliac, cholesterol",
    "health fitness diet": "lose weight, losing weight, weight loss, weight, get in shape",
    "health allergy": "allergy, allergies, allergic, anaphylaxis, anaphylactic",
    "finance": """money, financial, finances, salary, income, invest, investing, investment,
        mortgage, rent, bills, expensive, costs, price, prices, pay, paying, loan, loans,
        bank""",
    "finance work": "retire, retiring, retirement, retire early",
    "finance budget": """budget, save money, saving money, save, saving, savings, saving up,
        afford, cheap, debt, pay off, paying off, frugal, spend less, spending, money is
        tight, tight budget, broke""",
    "finance education": "student loans, student loan, tuition",
    "travel": """travel, traveling, travelling, trip, trips, flight, flights, fly, flying,
        airport, hotel, hotels, vacation, vacations, abroad, passport, aisle seat, aisle
        seats, window seat, window seats, road trip, cruise, drive, driving, train,
        commute, backpacking""",
    "work": """work, working, job, jobs, office, career, promoted, promotion, boss, colleague,
        colleagues, coworker, coworkers, deadline, deadlines, client, clients, shift,
        shifts, interview, workplace, business""",
    "work schedule": "meeting, meetings",
    "work finance": """unemployed, out of work, laid off, lost my job, fired, between jobs,
        job hunting""",
    "family": """family, kids, children, child, son, daughter, husband, wife, partner, mom,
        dad, mother, father, parents, sister, brother, siblings, baby, grandparents,
        grandma, grandpa, wedding, marriage""",
    "family legal": "divorce, custody",
    "schedule": """schedule, scheduling, appointment, appointments, calendar, weekend,
        weekends, weekday, weekdays, morning, mornings, evening, evenings, noon, after noon,
        before noon, after hours, midnight, bedtime, mondays, tuesdays, wednesdays,
        thursdays, fridays, saturdays, sundays""",
    "fitness": """fitness, fit, marathon, half marathon, run, running, ran, gym, workout,
        workouts, work out, exercise, exercising, training, train for, 5k, 10k, race,
        strength, muscles, yoga, cycling, steps""",
    "education": """learn, learning, study, studying, studies, class, classes, course,
        courses, degree, master's, masters, phd, school, college, university, exam,
        exams, homework, language, languages, spanish, french, german, italian, japanese,
        mandarin, chinese, portuguese, korean, arabic, russian, graduate, certification,
        lesson, lessons, tutor, tutoring""",
    "education entertainment": "read, reading, books, book, novels",
    "home": """house, home, apartment, flat, buy a house, renovation, renovating, furniture,
        garden, kitchen, move house""",
    "home finance": "buy a house, buying a house, buy a home, down payment",
    "pets": """dog, dogs, cat, cats, pet, pets, puppy, puppies, kitten, kittens, vet,
        animal, animals""",
    "social": "friends, friend, party, parties, socializing, crowds, crowded, dating",
    "entertainment": """movie, movies, film, films, concert, concerts, tv show, shows, tv,
        netflix, video games, games, music, theater, theatre""",
    "shopping": "shopping, shop, brands, brand, clothes, purchases, products, store, stores",
    "technology": """computer, laptop, app, apps, software, internet, social media, screen
        time, screen, screens, online, phone, phones, devices, gaming""",
    "privacy": """privacy, private, address, home address, phone number, my number,
        personal information, personal details, password, passwords, location, share my,
        my photos, my data""",
    "communication": """call, calls, call me, text, texts, text me, email, emails, email me,
        message, messages, reply, respond, contact, contact me, notifications, remind,
        reminders, voicemail, speak, talk""",
    "legal": "lawyer, legal, court date, court case, in court, lawsuit, visa, immigration",
    "religion": """religion, religious, kosher, halal, church, mosque, temple, synagogue,
        pray, prayer, sabbath, shabbat, ramadan, lent, muslim, jewish, christian, catholic,
        hindu, buddhist, sikh, faith""",
    "environment": """environment, environmental, sustainable, sustainably, sustainability,
        climate, carbon, footprint, eco-friendly, recycle, recycling, plastic, planet,
        zero waste""",
}


def _build_tag_map() -> dict[str, tuple[str, ...]]:
    mapping: dict[str, tuple[str, ...]] = {}
    spec = {**_TAG_SPEC, "travel ": ", ".join(sorted(COUNTRIES))}
    for tags, phrases in spec.items():
        for phrase in words(phrases):
            key = " ".join(_TOKEN.findall(phrase))
            merged = list(mapping.get(key, ()))
            merged += [t for t in tags.split() if t not in merged]
            mapping[key] = tuple(merged)
    return mapping


TAG_WORDS: dict[str, tuple[str, ...]] = _build_tag_map()
_TAG_INDEX = PhraseIndex(TAG_WORDS)
_CLOCK_TIME = re.compile(r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm)\b", re.IGNORECASE)


def scope_tags(text: str) -> list[str]:
    """The scope tags ``text`` touches, in order of first mention ("before 10am" counts
    as schedule; a country counts as travel)."""
    out: list[str] = []
    for _, phrase in _TAG_INDEX.find(text):
        out += [t for t in TAG_WORDS[phrase] if t not in out]
    if "schedule" not in out and _CLOCK_TIME.search(text):
        out.append("schedule")
    return out


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


def tokens(text: str) -> list[str]:
    """Lower-case words as the phrase index and the triggers see them ("don't", "i'm",
    "k-pop" are one word each)."""
    return _TOKEN.findall(text.lower())


def _head_words(phrases: Iterable[str]) -> frozenset[str]:
    return frozenset(p.split()[-1] for p in phrases)


# A detector (in the ``read_*`` modules) runs only when its clause has one of these
# words: each set must hold a word that every one of the detector's patterns needs (its
# verb, its keyword, the head noun of its word list). Adding a pattern means adding its
# word here.
TRIGGERS: dict[str, frozenset[str]] = {
    "allergy": frozenset(
        words("allergic, allergy, allergies, intolerant, intolerance, celiac, coeliac")
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
            """name, name's, call, calls, called, go, nickname, nickname's, pronouns, born,
            turned, it's, this, i'm, use"""
        )
    ),
    "location": frozenset(
        words(
            """live, lives, lived, living, reside, resides, based, staying, settled, moved,
            relocated, left, from, grew, born, raised, come"""
        )
    ),
    "occupation": _head_words(JOBS)
    | frozenset(
        words(
            """work, works, worked, working, job, retired, student, study, studying, studies,
            majoring, teach, taught, quit, left, laid, fired, attend, phd, degree, masters,
            master's, doctorate, bachelor's"""
        )
    ),
    "relationship": frozenset(
        t for w in (*RELATIONS, *PETS) for t in (*tokens(w), *tokens(w + "s"))
    )
    | frozenset(words("named, called, married, engaged, name, name's, boys, girls, twins")),
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
    "preference": frozenset(
        words(
            """love, like, likes, enjoy, adore, prefer, hate, dislike, detest, loathe, stand,
            care, fan, into, obsessed, crazy, sucker, hooked, big, enough, person, lover,
            addict, nerd, junkie, jam, thing, weakness, pleasure, go-to, place, cup, vibe,
            kryptonite, favorite, favourite, fave, fav, liked, loved, enjoyed, been"""
        )
    ),
}
