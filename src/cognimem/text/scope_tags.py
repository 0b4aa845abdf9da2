"""The scope-tag lexicon: which domains (food, health, finance, travel, ...) a text
touches, so that a constraint and a query meet on one vocabulary ("I'm allergic to
shellfish" is food and allergy; so is "recommend a restaurant").

:func:`scope_tags` maps text to tags in order of first mention; the write path tags
extracted constraints with it and the read path tags queries and candidate turns with
it. Its tags are those of the extraction schema's ``SCOPE_TAGS``
(``models/extraction.py``).
"""

from __future__ import annotations

import re

from cognimem.text.tokens import PhraseIndex, tokens, words

__all__ = ["COUNTRIES", "TAG_WORDS", "scope_tags"]

# a country counts as travel
COUNTRIES = frozenset(
    words(
        """usa, america, united states, canada, mexico, brazil, argentina, chile, peru,
        colombia, uk, united kingdom, england, scotland, wales, ireland, france, germany,
        spain, portugal, italy, netherlands, holland, belgium, switzerland, austria, sweden,
        norway, denmark, finland, iceland, poland, czechia, czech republic, hungary,
        greece, turkey, russia, ukraine, israel, egypt, morocco, kenya, nigeria, ghana,
        south africa, ethiopia, india, pakistan, china, japan, korea, south korea,
        vietnam, thailand, cambodia, indonesia, malaysia, singapore, philippines,
        australia, new zealand, taiwan, nepal, sri lanka, cuba, jamaica, iran, iraq,
        lebanon, jordan, uae, dubai, qatar, saudi arabia, iceland, greenland, croatia,
        slovenia, slovakia, serbia, romania, bulgaria, estonia, latvia, lithuania, belarus,
        georgia, armenia, azerbaijan, kazakhstan, uzbekistan, mongolia, laos, myanmar,
        bangladesh, bhutan, maldives, oman, bahrain, kuwait, tunisia, algeria, libya, sudan,
        senegal, tanzania, uganda, rwanda, zambia, zimbabwe, botswana, namibia,
        madagascar, mozambique, angola, cameroon, ivory coast, costa rica, panama,
        guatemala, honduras, nicaragua, el salvador, belize, ecuador, bolivia, paraguay,
        uruguay, venezuela, puerto rico, dominican republic, haiti, bahamas, barbados,
        fiji, samoa, tonga, luxembourg, monaco, malta, cyprus, montenegro, albania,
        north macedonia, bosnia, moldova, scotland, northern ireland"""
    )
)

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
        panic, panic attack, bed, sleepy, drowsy, acne, breakouts, exhausted, exhaustion,
        tired, fatigue, fatigued, worn out, cramps, stomach cramps""",
    "health medical": """surgery, doctor, hospital, medication, medications, medicine, meds,
        prescription, antibiotics, diagnosed, pregnant, pregnancy, broke my, broken,
        fracture, fractured, sprained, crutches, cast, physical therapy, physio, chemo,
        chemotherapy, cancer, insulin, inhaler, blood pressure, concussion, stitches, asthma,
        expecting a baby, expecting our first, expecting our second,
        epipen, penicillin, therapist, therapy, epilepsy, epileptic, seizures, anemia,
        anaemia, anemic, anaemic, asthmatic, arthritic, hypoglycemic, hypoglycaemic""",
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
    "leisure": """leisure, hobby, hobbies, free time, spare time, day off, days off, outing,
        outings""",
    "values": "values, principles, ethics, ethical, morals, moral",
    "environment": """environment, environmental, sustainable, sustainably, sustainability,
        climate, carbon, footprint, eco-friendly, recycle, recycling, plastic, planet,
        zero waste""",
}


def _build_tag_map() -> dict[str, tuple[str, ...]]:
    mapping: dict[str, tuple[str, ...]] = {}
    spec = {**_TAG_SPEC, "travel ": ", ".join(sorted(COUNTRIES))}
    for tags, phrases in spec.items():
        for phrase in words(phrases):
            key = " ".join(tokens(phrase))
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
