"""Word lists the rule extractor's detectors are built from: relations and pets, words
that are not names, nationalities, jobs and workplaces, preference domains,
possessions, event nouns, diet labels, allergens, and the words that make a phrase refer
to the conversation rather than to something lasting (the countries, which tag a text
as travel, are in :mod:`cognimem.text.scope_tags`).

Each list is written as one comma-separated string (:func:`cognimem.text.tokens.words`)
so that it reads like prose and diffs by the word. The lists lean towards precision: a
word goes in only when it names its class in ordinary chat ("cold" is a health word for
a state only after "have a", see ``detect_constraints``), because a chat turn typed as a
constraint by mistake pollutes every later answer. How the lists are matched is in
:mod:`.lexicon` and :mod:`.patterns`.
"""

from __future__ import annotations

import re

from cognimem.text.tokens import words

# ------------------------------------------------------------------- people and pets

# the word as written -> the normalised relation (the fact's predicate)
RELATIONS: dict[str, str] = {
    "sister": "sister",
    "sibling": "sibling",
    "siblings": "sibling",
    "twin": "sibling",
    "twins": "child",
    "boys": "son",
    "girls": "daughter",
    "sis": "sister",
    "brother": "brother",
    "mom": "mother",
    "mum": "mother",
    "mother": "mother",
    "mama": "mother",
    "mommy": "mother",
    "dad": "father",
    "father": "father",
    "papa": "father",
    "daddy": "father",
    "son": "son",
    "daughter": "daughter",
    "kid": "child",
    "kids": "child",
    "child": "child",
    "children": "child",
    "wife": "wife",
    "husband": "husband",
    "hubby": "husband",
    "partner": "partner",
    "spouse": "partner",
    "fiance": "partner",
    "fiancé": "partner",
    "fiancee": "partner",
    "fiancée": "partner",
    "boyfriend": "boyfriend",
    "girlfriend": "girlfriend",
    "friend": "friend",
    "best friend": "friend",
    "bestie": "friend",
    "buddy": "friend",
    "colleague": "colleague",
    "coworker": "colleague",
    "co-worker": "colleague",
    "boss": "boss",
    "manager": "boss",
    "grandma": "grandmother",
    "grandmother": "grandmother",
    "granny": "grandmother",
    "grandpa": "grandfather",
    "grandad": "grandfather",
    "granddad": "grandfather",
    "grandfather": "grandfather",
    "grandson": "grandson",
    "granddaughter": "granddaughter",
    "grandchild": "grandchild",
    "grandkid": "grandchild",
    "grandkids": "grandchild",
    "grandchildren": "grandchild",
    "aunt": "aunt",
    "mother-in-law": "mother-in-law",
    "father-in-law": "father-in-law",
    "sister-in-law": "sister-in-law",
    "brother-in-law": "brother-in-law",
    "daughter-in-law": "daughter-in-law",
    "son-in-law": "son-in-law",
    "uncle": "uncle",
    "cousin": "cousin",
    "niece": "niece",
    "nephew": "nephew",
    "roommate": "roommate",
    "neighbor": "neighbor",
    "neighbour": "neighbor",
}
# one at a time: a new value replaces the old
SINGLE_RELATIONS = frozenset(
    {"mother", "father", "wife", "husband", "partner", "boyfriend", "girlfriend", "boss"}
)
PETS: frozenset[str] = frozenset(
    words(
        """dog, puppy, pup, cat, kitten, kitty, bird, parrot, budgie, hamster, rabbit, bunny,
        turtle, tortoise, horse, pony, guinea pig, ferret, lizard, snake, gecko, goldfish,
        fish, chinchilla, rescue dog, rescue cat"""
    )
)
RELATION_TAGS: dict[str, tuple[str, ...]] = {
    "friend": ("social",),
    "colleague": ("work", "social"),
    "boss": ("work",),
    "roommate": ("home", "social"),
    "neighbor": ("home", "social"),
    "pet": ("pets",),
}
# before a relation word: "my little sister", "my ex-husband"
RELATION_MODIFIERS = words(
    """little, older, younger, big, baby, twin, best, new, old, eldest, oldest, youngest,
    step, late, ex, ex-, sweet, beautiful, lovely, amazing, adopted, rescue, dear,
    two-year-old, elderly"""
)
# the numbers one to twenty in words: a child's age ("he's five"), a birthday, an hour
NUMBER_WORDS = words(
    """one, two, three, four, five, six, seven, eight, nine, ten, eleven, twelve, thirteen,
    fourteen, fifteen, sixteen, seventeen, eighteen, nineteen, twenty"""
)

# ------------------------------------------------------------------- names

# capitalised words that are not names when they follow "I'm" / "my sister" / "with"
NOT_NAMES = frozenset(
    words(
        """i, i'm, im, me, my, we, you, he, she, they, it, this, that, these, those, the, a,
        an, and, or, but, so, just, really, very, not, no, yes, yeah, ok, okay, sorry,
        fine, good, great, back, here, there, home, done, ready, sure, glad, happy, sad,
        tired, busy, free, new, old, also, still, always, never, now, then, today, tonight,
        tomorrow, yesterday, god, lord, jesus, christmas, easter, mom, dad, mum, grandma,
        grandpa, everyone, everybody, someone, somebody, nobody, anyone, all, both, each,
        thanks, thank, hey, hi, hello, wow, oh, lol, haha, omg, well, anyway, english,
        monday, tuesday, wednesday, thursday, friday, saturday, sunday, january, february,
        march, april, may, june, july, august, september, october, november, december,
        spring, summer, fall, autumn, winter, love, what, where, when, why, how, who,
        there's, it's, that's, let's, in, on, at, to, from, for, with, is, was, are, be,
        pretty, totally, definitely, actually, honestly, currently, originally, thankfully,
        luckily, unfortunately, sadly, hopefully, fortunately, finally, obviously, apparently,
        basically, seriously, surprisingly, interestingly, congrats, congratulations,
        cheers, sounds, looks, nice, cool, awesome, amazing, yay, yep, nope, sure, please,
        guess, btw, anyway, right, true, same, bye, see, hope, glad, wait, maybe, last, next"""
    )
)
NATIONALITIES = frozenset(
    words(
        """italian, thai, mexican, indian, chinese, japanese, korean, vietnamese, french,
        greek, spanish, lebanese, turkish, ethiopian, moroccan, american, british, german,
        brazilian, peruvian, cuban, caribbean, jamaican, filipino, indonesian, malaysian,
        persian, middle eastern, mediterranean, cajun, southern, tex-mex, irish, scottish,
        portuguese, russian, polish, swedish, nigerian, korean bbq, african, asian, latin,
        afghan, pakistani, nepalese, sri lankan, hawaiian, argentinian, colombian"""
    )
)
# ------------------------------------------------------------------- occupation

JOBS = words(
    """engineer, software engineer, developer, programmer, nurse, teacher, doctor,
    physician, surgeon, lawyer, attorney, paralegal, accountant, designer, artist, writer,
    author, student, chef, cook, baker, barista, bartender, waiter, waitress, server,
    manager, consultant, scientist, researcher, professor, lecturer, pharmacist, dentist,
    therapist, counselor, counsellor, psychologist, social worker, architect, electrician,
    plumber, carpenter, mechanic, firefighter, police officer, cop, pilot,
    flight attendant, photographer, musician, singer, dancer, actor, actress, analyst,
    data scientist, marketer, salesperson, sales rep, realtor, real estate agent,
    librarian, veterinarian, vet, vet tech, paramedic, soldier, journalist, editor,
    entrepreneur, freelancer, intern, cashier, receptionist, secretary, farmer, tutor,
    coach, personal trainer, nanny, caregiver, midwife, technician, administrator,
    consultant, banker, economist, translator, interpreter, illustrator, animator,
    filmmaker, producer, director, principal, stay-at-home mom, stay-at-home dad,
    homemaker, mail carrier, driver, truck driver, electrician, welder, janitor,
    pastor, priest, rabbi, imam, volunteer coordinator, copywriter, recruiter, ceo, cto,
    founder, co-founder, product manager, project manager, web developer,
    graduate student, phd student, grad student, med student, law student, resident,
    sous chef, hairdresser, hairstylist, barber, tattoo artist, potter, sculptor,
    painter, game developer, data analyst, dietitian, nutritionist, optometrist,
    surgeon, chiropractor, physiotherapist, physical therapist, optician, cellist,
    violinist, pianist, guitarist, drummer, bassist, saxophonist, trumpeter, flautist,
    flutist, conductor, composer, choreographer, sommelier, florist, jeweler, jeweller,
    tailor, seamstress, locksmith, butcher, fisherman, park ranger, lifeguard, zookeeper,
    dog walker, dog groomer, mortician, undertaker, stylist, esthetician, anesthesiologist,
    radiologist, dermatologist, pediatrician, cardiologist, obstetrician, gynecologist,
    neurologist, orthodontist, dental hygienist, doula, sonographer, phlebotomist, emt,
    landscaper, roofer, bricklayer, handyman, crane operator, machinist, courier,
    chauffeur, flight instructor, detective, sheriff, security guard, bouncer, prosecutor,
    public defender, notary, bookkeeper, auditor, underwriter, loan officer,
    financial advisor, stockbroker, sales associate, caterer, housekeeper, babysitter,
    au pair, teaching assistant, youtuber, influencer, podcaster, news anchor, reporter,
    columnist, screenwriter, novelist, playwright, sysadmin, rancher, winemaker,
    missionary, chaplain, minister, caseworker, case worker, astronaut"""
)
# lower-case workplaces that stand for an employer ("I work at a hospital")
WORKPLACES = words(
    """hospital, bank, school, startup, start-up, nonprofit, non-profit, company, firm,
    law firm, restaurant, cafe, café, bakery, agency, clinic, factory, store, shop,
    library, university, college, hotel, warehouse, bookstore, coffee shop, gym, lab,
    newspaper, magazine, charity, museum, daycare, pharmacy, supermarket, grocery store,
    construction company, tech company, consulting firm, marketing agency, bar, care home,
    nursing home"""
)
STUDY_PLACE = re.compile(
    r"(?-i:\b(?:University|College|School|Institute|Academy|Polytechnic)\b|^[A-Z]{2,6}$)"
)

# ------------------------------------------------------------------- preferences

# domain -> words that put an object in it (the last one in the object decides)
PREFERENCE_DOMAINS: dict[str, tuple[str, ...]] = {
    "food": words(
        """food, pizza, pasta, sushi, burger, burgers, taco, tacos, chocolate, ice cream,
        cheese, bread, salad, salads, steak, chicken, seafood, vegetables, veggies, fruit,
        fruits, dessert, desserts, cake, cakes, cookies, pastries, noodles, ramen, curry,
        curries, dumplings, spicy food, sweets, candy, bbq, barbecue, soup, sandwiches,
        pancakes, bacon, avocado, avocados, snacks, donuts, doughnuts, pie, rice, fries,
        burritos, sashimi, dim sum, pho, kimchi, street food, baked goods, spicy, takeout,
        olives, mushrooms, onions, tomatoes, potatoes, eggs, oysters, shrimp, lobster, crab,
        bagels, croissants, waffles, oatmeal, yogurt, hummus, falafel, kebabs, brunch,
        breakfast, dinner, lunch, grilled cheese, mac and cheese, hot dogs, wings, nachos,
        peanut butter, berries, strawberries, mangoes, bananas, apples, watermelon, gelato,
        pastry, cheesecake, brownies, cupcakes, cilantro, garlic, broccoli, kale, tofu"""
    ),
    "drink": words(
        """tea, green tea, coffee, espresso, latte, lattes, cappuccino, cappuccinos, wine,
        red wine, white wine, beer, beers, cocktails, cocktail, whiskey, whisky, juice,
        smoothies, smoothie, soda, kombucha, matcha, hot chocolate, lemonade, champagne,
        iced coffee, craft beer, gin, rum, tequila, sake, milkshakes, bubble tea, boba"""
    ),
    "music": words(
        """music, jazz, rock, pop, hip hop, hip-hop, rap, classical, classical music,
        country music, blues, metal, heavy metal, punk, indie, edm, techno, folk, reggae,
        k-pop, kpop, opera, songs, bands, concerts, vinyl, r&b, soul, gospel, musicals,
        live music, salsa music, disco, house music, electronic music"""
    ),
    "movie": words(
        """movies, movie, films, film, cinema, horror, horror movies, comedies, comedy,
        documentaries, documentary, thrillers, rom-coms, romcoms, anime, cartoons, sci-fi,
        action movies, westerns, superhero movies, dramas, romantic comedies"""
    ),
    "book": words(
        """books, book, novels, novel, poetry, poems, fantasy, fantasy novels, mysteries,
        mystery novels, comics, comic books, manga, audiobooks, literature, biographies,
        memoirs, graphic novels, romance novels, crime novels, short stories"""
    ),
    "sport": words(
        """sports, sport, soccer, football, basketball, baseball, tennis, golf, hockey,
        volleyball, cricket, rugby, skiing, snowboarding, boxing, badminton, table tennis,
        ping pong, f1, formula 1, martial arts, karate, judo, wrestling, lacrosse, softball,
        squash, pickleball, bowling"""
    ),
    "activity": words(
        """hiking, camping, swimming, running, jogging, cycling, biking, walking, walks,
        yoga, pilates, dancing, climbing, rock climbing, bouldering, kayaking, canoeing,
        fishing, surfing, sailing, skating, ice skating, horseback riding, working out,
        the gym, exercise, exercising, stargazing, picnics, meditation, meditating,
        nature walks, being outdoors, the outdoors, outdoors, nature, scuba diving,
        snorkeling, paddleboarding, spending time outdoors"""
    ),
    "hobby": words(
        """painting, drawing, sketching, pottery, knitting, crocheting, sewing, gardening,
        photography, cooking, baking, reading, writing, journaling, woodworking,
        calligraphy, scrapbooking, collecting, bird watching, birdwatching, singing,
        playing guitar, playing the guitar, playing the piano, playing piano, crafts,
        crafting, origami, diy, blogging, embroidery, quilting, ceramics, making music,
        writing poetry, watercolor, watercolors"""
    ),
    "game": words(
        """games, video games, board games, chess, poker, card games, puzzles, jigsaw
        puzzles, gaming, sudoku, crosswords, crossword puzzles, d&d, dungeons and dragons,
        trivia"""
    ),
    "art": words(
        """art, modern art, contemporary art, museums, art museums, galleries, sculpture,
        paintings, theater, theatre, ballet, architecture, street art, art galleries"""
    ),
    "travel": words(
        """travel, traveling, travelling, road trips, beaches, beach, the beach, mountains,
        the mountains, flights, cruises, backpacking, vacations, trips, sightseeing,
        islands, hotels, resorts, exploring new places, exploring new cities, window seats,
        aisle seats, window seat, aisle seat, beach vacations, road-tripping"""
    ),
    "animal": words(
        """dogs, cats, animals, horses, birds, puppies, kittens, dolphins, elephants,
        penguins, rabbits, pets, wildlife, otters, owls"""
    ),
}
COLORS = words(
    """red, blue, green, yellow, purple, pink, orange, black, white, gray, grey, brown,
    teal, turquoise, navy, maroon, lavender, gold, silver, beige"""
)
# favourite <kind>: kinds worth a single-valued fact (not "my favourite part")
FAVORITE_KINDS: dict[str, str] = {
    **{
        w: w.replace(" ", "_")
        for w in words(
            """color, food, dish, meal, cuisine, drink, movie, book, author, writer, band,
            singer, artist, song, album, genre, sport, team, game, show, tv show, series,
            animal, season, holiday, place, city, country, restaurant, snack, dessert,
            fruit, flower, hobby, activity, painter, podcast, musician, actor, actress,
            character, number, subject, video game, board game, beer, wine, coffee, tea,
            cocktail, band, composer, poet, novel, comedian, sports team"""
        )
    },
    "colour": "color",
    "pastime": "hobby",
    "thing to do": "hobby",  # "cooking is my favorite thing to do"
    "way to": "activity",  # "my favorite way to spend a weekend", "... to unwind"
    "film": "movie",
    "tv series": "show",
    "tv show": "show",
}

# ------------------------------------------------------------------- possessions

OWNABLES = words(
    """car, new car, bike, bicycle, motorcycle, motorbike, scooter, e-bike, truck, van,
    suv, boat, kayak, canoe, rv, camper, campervan, house, apartment, condo, cabin,
    cottage, farm, laptop, computer, pc, phone, iphone, smartphone, ipad, tablet, camera,
    guitar, acoustic guitar, electric guitar, piano, violin, drum kit, drums, ukulele,
    tv, television, console, ps5, playstation, xbox, nintendo switch, watch, smartwatch,
    tent, grill, telescope, drone, sewing machine, record player, 3d printer, kindle,
    e-reader, treadmill, pool, hot tub, garden, vacation home, beach house, minivan,
    jeep, convertible, sailboat, mac, macbook, ring, engagement ring, home, first home,
    air fryer, espresso machine, piano, keyboard, synthesizer, bike trailer, sewing kit,
    printer, projector, hot tub, trampoline, greenhouse, shed, barbecue, smoker"""
)

# ------------------------------------------------------------------- events

EVENT_NOUNS = words(
    """concert, festival, conference, workshop, class, course, lecture, seminar,
    support group, group, wedding, party, birthday party, funeral, game, match, show,
    play, musical, exhibition, exhibit, museum, gallery, zoo, aquarium, park, beach,
    lake, parade, protest, march, rally, retreat, camp, fair, carnival, market,
    farmers market, church, temple, mosque, library, meetup, hackathon, tournament,
    race, marathon, reunion, graduation, ceremony, recital, opera, ballet, gala,
    fundraiser, event, picnic, barbecue, bbq, trip, tour, cruise, pride parade, pride,
    convention, expo, club, book club, gym, session, meeting, open mic, comedy show,
    anniversary, birthday, holidays, christmas, thanksgiving, new year's, lesson, lessons,
    art show, play date, playdate, reading, screening, premiere, hike, camping trip,
    road trip, vacation, theater, theatre, cinema, movies, counseling session,
    therapy session, talk, summit, bootcamp, clinic, shelter, animal shelter, choir,
    team, league, studio, pottery class, cooking class, dance class, yoga class"""
)
GERUND_OUTINGS = words(
    """hiking, camping, swimming, fishing, skiing, snowboarding, shopping, kayaking,
    canoeing, surfing, biking, cycling, sailing, running, jogging, bowling, dancing,
    clubbing, sightseeing, skating, ice skating, climbing, rock climbing, horseback riding,
    snorkeling, scuba diving, paddleboarding, birdwatching, bird watching, stargazing,
    backpacking, rafting, sledding, apple picking, berry picking, hunting, golfing"""
)
# ------------------------------------------------------------------- constraints

DIET_LABELS = words(
    """vegetarian, vegan, pescatarian, pescetarian, plant-based, plant based, flexitarian,
    keto, paleo, gluten-free, gluten free, dairy-free, dairy free, kosher, halal,
    raw vegan, lacto-vegetarian, ovo-vegetarian, low-carb, low carb, whole30, carnivore"""
)
# what "I don't eat ..." names when it is a whole diet rather than one food
DIET_FOOD_GROUPS = words(
    """meat, red meat, animal products, any meat, fish, seafood, dairy, animal protein,
    poultry, any animal products, meat or fish, meat and fish"""
)
RELIGIONS = words(
    """muslim, jewish, christian, catholic, hindu, buddhist, sikh, mormon, protestant,
    orthodox, atheist, agnostic, jain, quaker, evangelical, methodist, baptist"""
)
FOOD_ALLERGENS = frozenset(
    words(
        """peanuts, peanut, nuts, nut, tree nuts, tree nut, almonds, cashews, walnuts,
        pecans, pistachios, hazelnuts, shellfish, shrimp, prawns, lobster, crab,
        fish, dairy, milk, lactose, eggs, egg, gluten, wheat, soy, soya, sesame,
        strawberries, kiwi, mustard, celery, corn, garlic, tomatoes, mango, coconut,
        avocado, bananas, chocolate, seafood, mushrooms, sulfites, msg, food"""
    )
)
DRUG_ALLERGENS = frozenset(
    words(
        """penicillin, amoxicillin, aspirin, ibuprofen, sulfa, sulfa drugs, antibiotics,
        codeine, morphine, latex, anesthesia, contrast dye, nsaids"""
    )
)
# an illness or a symptom the speaker can have ("this cold won't go away")
CONDITIONS = words(
    """cold, flu, fever, cough, headache, headaches, migraine, migraines, sore throat,
    stomach bug, infection, ear infection, sinus infection, rash, hives, allergies,
    back pain, pain, ache, aches, toothache, earache, stomachache, stomach ache, nausea,
    insomnia, congestion, bronchitis, pneumonia, covid, asthma, acne, eczema, swelling,
    bruise, blister, sprain, injury, cramps, heartburn, reflux, hangover, jet lag,
    anxiety, depression, burnout, fatigue, exhaustion, tinnitus, vertigo, sunburn,
    sciatica, arthritis, tendonitis, shin splints, plantar fasciitis, gout, sinusitis,
    strep, strep throat, chest infection, runny nose, stuffy nose, back spasms,
    spasms, flare-up, flare up, morning sickness, food poisoning, concussion, cold sore,
    sniffles, the sniffles"""
)
# a part of the body that can hurt ("my knee still hurts")
BODY_PARTS = words(
    """knee, knees, back, ankle, ankles, wrist, wrists, shoulder, shoulders, neck, hip,
    hips, foot, feet, leg, legs, arm, arms, hand, hands, stomach, tummy, head, tooth,
    teeth, eye, eyes, ear, ears, throat, jaw, elbow, elbows, toe, toes, finger, fingers,
    thumb, chest, skin, nose, sinuses, joints, muscles, hamstring, calf, calves, shin,
    shins, heel, heels, spine, gut, lungs, gums"""
)
# a feeling said as a bare adjective ("I'm lonely"): read as a state (:mod:`.feelings`);
# "bored", like "excited", is a mood of the moment and no state (``detect_stances``)
FEELING_WORDS = words(
    """lonely, homesick, anxious, restless, nervous, sad, depressed, isolated,
    unmotivated, miserable, heartbroken, burnt out, burned out, overwhelmed,
    stressed, stressed out, frustrated, irritable, insecure, unhappy"""
)
# ... of which these pass with the moment unless said to last ("I'm nervous" before a
# talk; "I've been feeling nervous lately")
PASSING_FEELINGS = frozenset(words("restless, nervous, sad, frustrated, irritable"))

# words that name one condition in other words: a restatement may say either
# ("I'm exhausted", "I'm so tired lately"), so each is read as the first of its group
SAME_CONDITION: dict[str, str] = {
    w: group[0]
    for group in (
        words("""tired, exhausted, exhaustion, fatigue, fatigued, drained, worn, wiped,
            knackered, weary"""),
        words("nauseous, nausea, queasy, nauseated"),
        words("dizzy, dizziness, lightheaded, light-headed, woozy, faint"),
        words("insomnia, sleep, sleeping, sleepless"),
        words("""stressed, stress, stressful, overwhelmed, overwhelming, swamped, slammed,
            busy, hectic, crazy, insane"""),
        words("swollen, swelling"),
        words("coughing, cough"),
        words("headache, headaches"),
        words("migraine, migraines"),
        words("allergies, allergy"),
    )
    for w in group
}
# words that make a health, money or stress condition: a causal statement needs one
CONDITION_WORDS = frozenset(
    words(
        """sick, ill, nauseous, nausea, migraine, migraines, headache, headaches, anxious,
        anxiety, panic, pain, sleep, insomnia, bloated, rash, hives, itchy, dizzy, surgery,
        eyesight, vision, injury, injuries, injured, injure, asthma, heartburn, reflux,
        stomach, stress, stressed, breathe, throw, break, acne, jittery, afford, debt,
        budget, diabetes, celiac, coeliac, blood, back, nervous, accident"""
    )
)
# an object with one of these refers to the conversation, not to a lasting taste
CONTEXT_WORDS = frozenset(
    words(
        """it, that, this, these, those, them, you, your, yours, ya, u, him, her, his, their,
        how, what, everything, anything, something, nothing, one, ones, stuff, things,
        here, there, everyone, people, guys, us, hearing, seeing, talking, chatting"""
    )
)
CONTEXT_PHRASES = ("the way", "the idea", "the fact", "the sound", "the thought", "the look")
# a goal or rule that points at these is about the conversation ("I want to see it")
POINTER_WORDS = frozenset(
    words("it, that, this, these, those, them, you, your, him, her, here, there, one")
)
# "I started feeling better" is no event
CHORE_GERUNDS = frozenset(
    words(
        """feeling, thinking, getting, going, wondering, realizing, realising, looking,
        trying, having, being, doing, working, wanting, needing, making, taking, using,
        noticing, seeing, hearing"""
    )
)
# what may follow "I'm" or "my wife is" where a name could, and names no one: "I'm
# Canadian", "my wife is Catholic", "I'm vegan"
NOT_A_NAME_AFTER_IM = NATIONALITIES | frozenset(RELIGIONS) | frozenset(DIET_LABELS)
