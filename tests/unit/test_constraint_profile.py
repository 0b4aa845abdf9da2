"""The standing constraint profile's rules (``recall/profile.py``), on plain facts:
which constraints are one stance, which supersede which, what decays out and what a
request carries, in which order."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from cognimem.models import Scope
from cognimem.models.knowledge import Fact, FactCategory
from cognimem.recall.profile import Profile, ProfileConfig, Standing
from cognimem.recall.profile_choose import choose, part_config
from cognimem.recall.profile_consolidate import consolidate, nearest_other, stance_hubness

T0 = datetime(2024, 1, 1, tzinfo=UTC)
DAY = timedelta(days=1)
# the rules but the request-as-nearest-neighbour bonus (``reciprocal``, tested on its
# own below): among a few near-orthogonal toy vectors almost any request is nearer to a
# statement than the user's other statements are
CONFIG = replace(ProfileConfig(), reciprocal=0.0)
# the floors but those of the user's constraints' mean: what the tests of the other rules use
RELATIVE = replace(CONFIG, stand_out=None, then_stand_out=None)
# the mean floor alone, for the first entry and the rest alike
MEAN_ONLY = replace(CONFIG, then_stand_out=None)


def fact(
    n: int,
    value: str,
    *,
    category: FactCategory = FactCategory.POLICY,
    predicate: str = "food",
    polarity: bool = True,
    said: datetime = T0,
) -> Fact:
    return Fact(
        id=f"f{n}",
        scope=Scope(user_id="u"),
        key=f"user:{category.value}:{predicate}:{n}",
        subject="user",
        predicate=predicate,
        category=category,
        value=value,
        polarity=polarity,
        text=value,
        last_validated_at=said,
        recorded_at=said,
        evidence_event_ids=[f"e{n}"],
        evidence_item_ids=[f"i{n}"],
    )


def unit(*xs: float) -> np.ndarray:
    v = np.asarray(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_one_stance_in_other_words_is_one_entry_shown_as_its_newest() -> None:
    newest = fact(1, "no pork at all", said=T0 + 5 * DAY)
    older = fact(2, "pork", polarity=False)  # the same stance: against pork
    other = fact(3, "spicy food", polarity=False)
    matrix = np.vstack([unit(1, 0, 0), unit(0.95, 0.3, 0), unit(0, 0, 1)])
    profile = consolidate([newest, older, other], [0, 1, 2], matrix, CONFIG)
    assert [s.fact.id for s in profile.entries] == ["f1", "f3"]
    merged = profile.entries[0]
    assert [f.id for f in merged.paraphrases] == ["f2"]
    assert merged.event_ids() == ["e1", "e2"]
    assert profile.by_fact()["f2"] is merged


def test_an_older_opposite_stance_on_the_same_subject_is_superseded() -> None:
    newer = fact(1, "saving money", polarity=False, predicate="finance", said=T0 + DAY)
    older = fact(2, "save money", category=FactCategory.GOAL, predicate="finance")
    unrelated = fact(3, "money for charity", predicate="values")  # another predicate
    matrix = np.vstack([unit(1, 0.2, 0), unit(1, 0, 0), unit(0.9, 0, 0.3)])
    profile = consolidate([newer, older, unrelated], [0, 1, 2], matrix, CONFIG)
    assert [s.fact.id for s in profile.entries] == ["f1", "f3"]
    assert [f.id for f in profile.entries[0].supersedes] == ["f2"]


def test_stale_states_decay_out_and_binding_ones_never() -> None:
    state = fact(1, "my knee hurts", category=FactCategory.STATE, predicate="health")
    rule = fact(2, "no running on concrete", predicate="fitness")
    profile = consolidate([state, rule], [0, 1], np.vstack([unit(1, 0), unit(0, 1)]), CONFIG)
    close = np.array([0.5, 0.5])
    none = np.zeros(2, dtype=bool)
    soon = choose(profile, close, none, none, T0 + 3 * DAY, RELATIVE)
    assert {e.standing.fact.id for e in soon} == {"f1", "f2"}
    late = choose(profile, close, none, none, T0 + 400 * DAY, RELATIVE)
    assert [e.standing.fact.id for e in late] == ["f2"]


def test_a_shared_tag_ranks_an_entry_up_and_a_shared_area_tag_only_at_its_weight() -> None:
    facts = [fact(i, f"rule {i}", said=T0) for i in range(3)]
    profile = consolidate(facts, [0, 1, 2], np.eye(3, dtype=np.float32), CONFIG)
    semantic = np.array([0.2, 0.2, 0.2])
    area = np.array([False, True, False])
    tagged = np.array([False, False, True])
    # by default the areas count graded (area_affinity), the all-or-nothing tag not
    chosen = choose(profile, semantic, area, tagged, T0, RELATIVE)  # a tie: the older first
    assert [e.standing.fact.id for e in chosen] == ["f2", "f1", "f0"]
    weighted = choose(profile, semantic, area, tagged, T0, replace(RELATIVE, area_weight=0.2))
    assert [e.standing.fact.id for e in weighted] == ["f1", "f2", "f0"]
    assert weighted[0].signals["area"] == 1.0
    assert weighted[0].reason().startswith("standing profile: shares a decision area")


def test_a_constraint_near_all_the_others_gives_way_to_one_that_stands_out() -> None:
    # three money rules close to one another (and so to any request about money or
    # plans), one rule about the knee alone: the request is closer to the money rules,
    # but the knee stands out from the user's constraints
    money = [fact(i, f"money rule {i}", predicate="finance", said=T0) for i in range(3)]
    knee = fact(3, "no stairs for my knee", predicate="health", said=T0)
    matrix = np.vstack(
        [unit(1, 0.8, 0, 0, 0), unit(1, 0, 0.8, 0, 0), unit(1, 0, 0, 0.8, 0), unit(0, 0, 0, 0, 1)]
    )
    profile = consolidate([*money, knee], [0, 1, 2, 3], matrix, CONFIG)
    assert [round(s.crowding, 2) for s in profile.entries] == [0.41, 0.41, 0.41, 0.0]
    semantic = np.array([0.32, 0.3, 0.3, 0.22])
    none = np.zeros(4, dtype=bool)
    chosen = choose(profile, semantic, none, none, T0, MEAN_ONLY)
    # the knee first; the money rules fall more than ``within`` below it and stay out
    assert [e.standing.fact.id for e in chosen] == ["f3"]
    assert chosen[0].signals["crowding"] == 0.0
    assert chosen[0].reason() == "standing profile: close in meaning (0.22, its crowding 0.00)"
    # without the hubness correction the money rules come first, the knee last
    flat = choose(profile, semantic, none, none, T0, replace(RELATIVE, crowding_weight=0.0))
    assert [e.standing.fact.id for e in flat][-1] == "f3"


def test_among_a_few_constraints_only_those_above_their_mean_are_carried() -> None:
    # seven unrelated rules of one user, all a little close to the request, none near
    # another: every one is within ``within`` of the best, so the relative floor alone
    # carries them all; the profile carries only those that stand out of the seven
    rules = [fact(i, f"rule {i}", predicate=f"topic{i}", said=T0) for i in range(7)]
    profile = consolidate(rules, list(range(7)), np.eye(7, dtype=np.float32), CONFIG)
    semantic = np.array([0.16, 0.15, 0.14, 0.11, 0.1, 0.09, 0.08])
    none = np.zeros(7, dtype=bool)
    assert len(choose(profile, semantic, none, none, T0, RELATIVE)) == 7
    chosen = choose(profile, semantic, none, none, T0, MEAN_ONLY)
    assert [e.standing.fact.id for e in chosen] == ["f0", "f1", "f2"]  # the mean: 0.119
    # one rule alone is its own mean: a scope of one still carries it
    alone = consolidate(rules[:1], [0], np.eye(1, dtype=np.float32), CONFIG)
    assert len(choose(alone, semantic[:1], none[:1], none[:1], T0, CONFIG)) == 1


def test_after_the_best_an_entry_must_stand_well_above_the_mean() -> None:
    # ten preferences on ten topics, one plainly closest to the request, the others a
    # little close as any sentence is: above the mean is half of them, so the mean
    # floor carried four; after the best an entry must stand out by then_stand_out (its
    # score) or then_close (its closeness)
    rules = [fact(i, f"rule {i}", predicate=f"topic{i}", said=T0) for i in range(10)]
    profile = consolidate(rules, list(range(10)), np.eye(10, dtype=np.float32), CONFIG)
    semantic = np.array([0.35, 0.15, 0.145, 0.14, 0.12, 0.11, 0.1, 0.09, 0.08, 0.07])
    none = np.zeros(10, dtype=bool)
    assert len(choose(profile, semantic, none, none, T0, MEAN_ONLY)) == 4
    chosen = choose(profile, semantic, none, none, T0, CONFIG)
    assert [e.standing.fact.id for e in chosen] == ["f0"]  # 0.3 σ by closeness: 0.158
    # two that both stand well out are both carried: the floor is no cap
    semantic[1] = 0.33
    chosen = choose(profile, semantic, none, none, T0, CONFIG)
    assert [e.standing.fact.id for e in chosen] == ["f0", "f1"]
    # ... and one that shares the request's scope tag and decision area needs only the
    # margin, as it needs no mean floor (two food rules for a dinner)
    semantic[1] = 0.15
    topic = np.zeros(10, dtype=bool)
    topic[[0, 2]] = True
    chosen = choose(profile, semantic, topic, topic, T0, CONFIG)
    assert [e.standing.fact.id for e in chosen] == ["f0", "f2"]


def test_after_the_best_an_entry_close_enough_on_its_own_is_carried() -> None:
    # f1 is plainly close to the request but a little crowded (near f2): by its score it
    # does not stand out of the ten (f3 scores higher and stays out), by its closeness
    # it does, and closeness alone is evidence enough
    rules = [fact(i, f"rule {i}", predicate=f"topic{i}", said=T0) for i in range(10)]
    matrix = np.eye(10, dtype=np.float32)
    matrix[1] = unit(0, 1, 0.4, 0, 0, 0, 0, 0, 0, 0)
    profile = consolidate(rules, list(range(10)), matrix, CONFIG)
    semantic = np.array([0.35, 0.3, 0.1, 0.12, 0.11, 0.1, 0.09, 0.08, 0.07, 0.06])
    none = np.zeros(10, dtype=bool)
    chosen = choose(profile, semantic, none, none, T0, CONFIG)
    assert [e.standing.fact.id for e in chosen] == ["f0", "f1"]
    mean_only = choose(profile, semantic, none, none, T0, MEAN_ONLY)
    assert [e.standing.fact.id for e in mean_only] == ["f0", "f3", "f1", "f4"]


def test_facts_of_one_message_do_not_crowd_each_other() -> None:
    # "I avoid flying because I get panic attacks" gives a rule and a cause of one
    # message, near each other; a third rule is of another message
    rule = fact(1, "avoid flying")
    cause = fact(
        2, "panic attacks on planes", category=FactCategory.CAUSAL, predicate="health"
    ).model_copy(update={"evidence_event_ids": ["e1"]})
    other = fact(3, "no pork")
    matrix = np.vstack([unit(1, 0.6, 0), unit(1, 0, 0.6), unit(0.3, 1, 1)])
    profile = consolidate([rule, cause, other], [0, 1, 2], matrix, replace(CONFIG, crowding_k=1))
    crowding = {s.fact.id: s.crowding for s in profile.entries}
    near = float(unit(1, 0.6, 0) @ unit(0.3, 1, 1))
    assert crowding["f1"] == round(near, 4)  # its nearest of another message: f3
    assert crowding["f2"] == round(float(unit(1, 0, 0.6) @ unit(0.3, 1, 1)), 4)
    alone = consolidate([rule, cause], [0, 1], matrix[:2], CONFIG)
    assert [s.crowding for s in alone.entries] == [0.0, 0.0]  # one statement: no crowd


def test_an_entry_more_than_within_below_the_best_stays_out() -> None:
    # twenty rules of one user, none near another: the mean of their scores is far
    # below the best, so ``within`` alone decides; 0.35 below the best is the edge
    rules = [fact(i, f"rule {i}", predicate=f"topic{i}", said=T0) for i in range(20)]
    profile = consolidate(rules, list(range(20)), np.eye(20, dtype=np.float32), CONFIG)
    semantic = np.zeros(20)
    semantic[:3] = [0.5, 0.17, 0.13]  # 0.33 and 0.37 below the best
    none = np.zeros(20, dtype=bool)
    chosen = choose(profile, semantic, none, none, T0, CONFIG)
    assert [e.standing.fact.id for e in chosen] == ["f0", "f1"]


def test_a_part_of_a_request_ranks_only_the_entries_of_its_tags_without_crowding() -> None:
    # two food rules near each other, a travel rule alone: for the dinner part of "a
    # dinner and a flight" the crowding correction would put the travel rule first
    food = [fact(i, f"food rule {i}", said=T0) for i in range(2)]
    travel = fact(2, "no flights on Sundays", predicate="travel", said=T0)
    matrix = np.vstack([unit(1, 0.9, 0), unit(1, 0, 0), unit(0, 0, 1)])
    profile = consolidate([*food, travel], [0, 1, 2], matrix, CONFIG)
    semantic = np.array([0.3, 0.1, 0.18])
    none = np.zeros(3, dtype=bool)
    dinner = np.array([True, True, False])
    whole = choose(profile, semantic, none, dinner, T0, CONFIG)
    assert whole[0].standing.fact.id == "f2"
    part = choose(profile, semantic, none, dinner, T0, part_config(CONFIG))
    assert [e.standing.fact.id for e in part] == ["f0", "f1"]


def test_a_part_of_a_request_does_not_rank_its_topics_entries_by_listed_things() -> None:
    # two food rules, equally close to "a dinner": the listed things put the first on the
    # request's thing and the second off it, by more than the margin
    food = [fact(i, f"food rule {i}", said=T0) for i in range(2)]
    profile = consolidate(food, [0, 1], np.eye(2, dtype=np.float32), CONFIG)
    on_thing = {0: [1.0, 0.0], 1: [0.0, 1.0]}
    things = np.array([on_thing[r] for r in profile.columns.rows])
    profile = replace(profile, things=things)
    semantic = np.array([0.3, 0.3])
    dinner = np.array([True, True])
    request = np.array([1.0, 0.0])
    wide = replace(CONFIG, thing_affinity=0.5)  # more than the margin (within 0.35)
    part = choose(profile, semantic, dinner, dinner, T0, part_config(wide), None, request)
    assert sorted(e.standing.fact.id for e in part) == ["f0", "f1"]
    whole = choose(
        profile, semantic, dinner, dinner, T0, replace(wide, topic_exempt=False), None, request
    )
    assert [e.standing.fact.id for e in whole] == ["f0"]


def test_entries_of_the_requests_topic_and_area_need_not_stand_out() -> None:
    # two food rules near each other, both in the request's scope tag and decision area,
    # and an unrelated one: the mean of the scores kept only the closer food rule; an
    # entry the lexicon puts in the request's topic and area is carried within `within`
    food = [fact(0, "vegetarian", said=T0), fact(1, "shellfish", said=T0)]
    other = fact(2, "no flights on Sundays", predicate="travel", said=T0)
    matrix = np.vstack([unit(1, 1, 0), unit(1, 0, 0), unit(0, 0, 1)])
    profile = consolidate([*food, other], [0, 1, 2], matrix, CONFIG)
    semantic = np.array([0.6, 0.45, 0.0])
    topic = np.array([True, True, False])
    chosen = choose(profile, semantic, topic, topic, T0, CONFIG)
    assert [e.standing.fact.id for e in chosen] == ["f0", "f1"]
    strict = choose(profile, semantic, topic, topic, T0, replace(CONFIG, topic_exempt=False))
    assert [e.standing.fact.id for e in strict] == ["f0"]
    # a shared area alone (the embedder's guess) is not enough: it must stand out
    area_only = choose(profile, semantic, topic, ~topic & topic, T0, CONFIG)
    assert "f1" not in [e.standing.fact.id for e in area_only]


def test_an_entry_in_the_requests_decision_areas_ranks_above_one_as_close_elsewhere() -> None:
    facts = [fact(0, "no pork"), fact(1, "a window seat", predicate="travel")]
    profile = consolidate(facts, [0, 1], np.eye(2, dtype=np.float32), CONFIG)
    in_area = {0: [1.0, 0.0], 1: [0.0, 1.0]}  # row 0 wholly in one area, row 1 another
    profile = replace(profile, areas=np.array([in_area[r] for r in profile.columns.rows]))
    semantic = np.array([0.2, 0.2])  # as close in meaning
    none = np.zeros(2, dtype=bool)

    def ranked(request_areas: np.ndarray | None, config: ProfileConfig = RELATIVE) -> list[str]:
        chosen = choose(profile, semantic, none, none, T0, config, request_areas)
        return [e.standing.fact.id for e in chosen]

    assert ranked(np.array([0.9, 0.1])) == ["f0", "f1"]
    assert ranked(np.array([0.1, 0.9])) == ["f1", "f0"]
    # the area affinity off, or the request's areas unknown: a tie, the older (f1) first
    assert ranked(np.array([0.9, 0.1]), replace(RELATIVE, area_affinity=0.0)) == ["f1", "f0"]
    assert ranked(None) == ["f1", "f0"]


def test_an_entry_on_the_same_listed_thing_as_the_request_ranks_above_one_as_close() -> None:
    facts = [fact(0, "no screens in bed"), fact(1, "a window seat", predicate="travel")]
    profile = consolidate(facts, [0, 1], np.eye(2, dtype=np.float32), CONFIG)
    on_thing = {0: [1.0, 0.0, 0.0], 1: [0.0, 1.0, 0.0]}  # row 0 on one thing, row 1 another
    things = np.array([on_thing[r] for r in profile.columns.rows])
    profile = replace(profile, things=things)
    semantic = np.array([0.2, 0.2])  # as close in meaning, no area known
    none = np.zeros(2, dtype=bool)

    def ranked(request: np.ndarray | None, config: ProfileConfig = RELATIVE) -> list[str]:
        chosen = choose(profile, semantic, none, none, T0, config, None, request)
        return [e.standing.fact.id for e in chosen]

    assert ranked(np.array([0.0, 0.8, 0.2])) == ["f1", "f0"]
    assert ranked(np.array([0.8, 0.0, 0.2])) == ["f0", "f1"]
    # the thing affinity off, or the request's things unknown: a tie, the older (f1) first
    assert ranked(np.array([0.8, 0.0, 0.2]), replace(RELATIVE, thing_affinity=0.0)) == [
        "f1",
        "f0",
    ]
    assert ranked(None) == ["f1", "f0"]
    # the signal it was ranked by shows the affinity: 0.2 + 0.3 * 0.8
    top = choose(profile, semantic, none, none, T0, RELATIVE, None, np.array([0.0, 0.8, 0.2]))
    assert abs(top[0].signals["semantic"] - (0.2 + CONFIG.thing_affinity * 0.8)) < 1e-4


def test_after_the_best_closeness_needs_to_stand_out_less_than_the_score() -> None:
    # f1 is the second closest of ten by some way: its score does not stand out
    # (then_stand_out), nor its closeness 0.5 σ (0.175), but 0.3 σ (0.159): it is carried
    rules = [fact(i, f"rule {i}", predicate=f"topic{i}", said=T0) for i in range(10)]
    profile = consolidate(rules, list(range(10)), np.eye(10, dtype=np.float32), CONFIG)
    semantic = np.array([0.35, 0.17, 0.14, 0.13, 0.12, 0.11, 0.1, 0.09, 0.08, 0.07])
    none = np.zeros(10, dtype=bool)
    chosen = choose(profile, semantic, none, none, T0, CONFIG)
    assert [e.standing.fact.id for e in chosen] == ["f0", "f1"]
    strict = replace(CONFIG, then_close=0.5)  # as the score: f1 stays out
    assert [e.standing.fact.id for e in choose(profile, semantic, none, none, T0, strict)] == ["f0"]


def _standing(n: int, category: FactCategory, crowding: float) -> Standing:
    return Standing(fact(n, f"c {n}", category=category), n, rows=(n,), crowding=crowding)


def test_a_stances_crowding_is_blended_with_its_hubness_against_a_reference() -> None:
    # three rules crowded alike by their shared stance words, and a goal; the first rule
    # is near the reference (everyday topics at large), the second far from it
    rules = [_standing(i, FactCategory.POLICY, 0.3) for i in range(3)]
    goal = _standing(3, FactCategory.GOAL, 0.1)
    profile = Profile((*rules, goal))
    heads = np.array([unit(1, 0, 0), unit(0, 1, 0), unit(1, 1, 0), unit(0, 0, 1)])
    reference = np.array([unit(1, 0.2, 0), unit(1, -0.2, 0)])
    out = stance_hubness(profile, heads, reference, 0.5)
    crowding = [s.crowding for s in out.entries]
    assert crowding[0] > crowding[2] > crowding[1]  # the hub is the most crowded now
    assert np.isclose(np.mean(crowding[:3]), 0.3)  # the stances' mean is kept ...
    assert crowding[3] == 0.1  # ... and the goal's crowding is its own
    assert [s.fact.id for s in out.entries] == ["f0", "f1", "f2", "f3"]
    assert stance_hubness(profile, heads, reference, 0.0) is profile


def test_entries_that_tie_are_ranked_older_first_not_by_fact_id() -> None:
    # two rules that score the same: the older (second in the profile) goes first whatever
    # the ids say (an id's tail is random, so a tie once chose differently run to run)
    newer = fact(1, "rule one", predicate="a", said=T0 + DAY).model_copy(update={"id": "fct_a"})
    older = fact(2, "rule two", predicate="b", said=T0 + DAY).model_copy(update={"id": "fct_z"})
    third = fact(3, "rule three", predicate="c", said=T0 + DAY)
    rules = [newer, older, third]
    profile = consolidate(rules, [0, 1, 2], np.eye(3, dtype=np.float32), RELATIVE)
    semantic = np.array([0.4, 0.4, 0.1])
    none = np.zeros(3, dtype=bool)
    chosen = choose(profile, semantic, none, none, T0 + DAY, RELATIVE)
    assert [e.standing.fact.id for e in chosen] == ["fct_z", "fct_a", "f3"]
    best_only = replace(CONFIG, then_stand_out=10.0, then_close=10.0)
    chosen = choose(profile, semantic, none, none, T0 + DAY, best_only)
    assert [e.standing.fact.id for e in chosen] == ["fct_z"]


def test_one_sentence_read_as_a_goal_and_a_rule_is_one_entry_shown_as_the_rule() -> None:
    # "I'm not eating out more than once a week because I'm saving for a house" gives a
    # goal and a rule of opposite stances with one vector: one entry, shown as the rule
    said = "I'm not eating out more than once a week because I'm saving for a house."
    goal = fact(1, "saving for a house", category=FactCategory.GOAL, predicate="saving")
    rule = fact(2, "not eating out more than once a week", predicate="eating out")
    rule = rule.model_copy(update={"evidence_event_ids": ["e1"], "text": said})
    other = fact(3, "no pork")
    matrix = np.vstack([unit(1, 0.2, 0), unit(1, 0.2, 0), unit(0, 0.3, 1)])
    profile = consolidate([goal, rule, other], [0, 1, 2], matrix, CONFIG)
    assert [s.fact.id for s in profile.entries] == ["f2", "f3"]
    one = profile.entries[0]
    assert [f.id for f in one.paraphrases] == ["f1"]
    assert one.rows == (1, 0)
    assert profile.by_fact()["f1"] is one
    # the same two of different messages stay two entries (opposite stances)
    apart = rule.model_copy(update={"evidence_event_ids": ["e2"]})
    profile = consolidate([goal, apart, other], [0, 1, 2], matrix, CONFIG)
    assert [s.fact.id for s in profile.entries] == ["f1", "f2", "f3"]


def test_each_statements_nearest_other_leaves_out_its_entry_and_its_messages() -> None:
    # f1 and its paraphrase f2 are one entry; f3 is a cause drawn from f1's message;
    # f4 is another message's rule
    rule = fact(1, "no pork at all")
    paraphrase = fact(2, "pork", polarity=False)
    cause = fact(
        3, "pork makes me ill", category=FactCategory.CAUSAL, predicate="health"
    ).model_copy(update={"evidence_event_ids": ["e1"]})
    other = fact(4, "spicy food", polarity=False)
    matrix = np.vstack([unit(1, 0, 0), unit(0.95, 0.3, 0), unit(1, 0.8, 0.3), unit(0.6, 0, 0.8)])
    few = replace(CONFIG, crowding_k=1)
    profile = consolidate([rule, paraphrase, cause, other], [0, 1, 2, 3], matrix, few)
    assert [[f.id for f in s.statements] for s in profile.entries] == [["f1", "f2"], ["f3"], ["f4"]]
    assert profile.nearest is not None
    cos = matrix @ matrix.T
    # f1 and f2: only f4 (f3 is of f1's message); f3: f4 (f2 shares no event with it,
    # but its entry holds f1's message); f4: the nearest of the three
    expected = [cos[0, 3], cos[1, 3], cos[2, 3], max(cos[3, 0], cos[3, 1], cos[3, 2])]
    assert np.allclose(profile.nearest, expected, atol=1e-6)
    assert consolidate([rule], [0], None, CONFIG).nearest is None
    # with fewer other entries than crowding_k no request is a statement's nearest
    assert (
        consolidate([rule, paraphrase, cause, other], [0, 1, 2, 3], matrix, CONFIG).nearest
        is not None
    )
    too_few = consolidate(
        [rule, paraphrase, cause, other], [0, 1, 2, 3], matrix, replace(CONFIG, crowding_k=2)
    )
    assert too_few.nearest is not None
    # f1, f2 and f3 have one other entry (f4), f4 two (f1's and f3's)
    assert np.isinf(too_few.nearest[:3]).all()
    assert too_few.nearest[3] == pytest.approx(expected[3])
    lone = nearest_other(np.ones((1, 1)), [[0]], np.zeros((1, 1), dtype=bool), 1)
    assert lone.tolist() == [np.inf]


def test_an_entry_the_request_is_nearest_to_gains_and_narrows_the_margin() -> None:
    # two rules 0.6 close to each other, a third apart: the request is nearer to f0 than
    # f0 is to f1 (its nearest), and farther from f1 than f1 is from f0
    # (nearest among two others: crowding_k 2)
    facts = [fact(i, f"rule {i}", predicate=f"topic{i}", said=T0) for i in range(3)]
    matrix = np.vstack([unit(1, 0, 0), unit(0.6, 0.8, 0), unit(0, 0, 1)])
    profile = consolidate(facts, [0, 1, 2], matrix, replace(CONFIG, crowding_k=2))
    semantic = np.array([0.65, 0.32, -0.2])
    none = np.zeros(3, dtype=bool)
    without = choose(profile, semantic, none, none, T0, RELATIVE)
    assert [e.standing.fact.id for e in without] == ["f0", "f1"]  # 0.33 apart: both in
    bonus = replace(RELATIVE, reciprocal=0.05)  # the crowding_k of consolidate is not read
    chosen = choose(profile, semantic, none, none, T0, bonus)
    assert ProfileConfig().reciprocal == 0.05
    assert [e.standing.fact.id for e in chosen] == ["f0"]  # 0.38 apart: f1 out
    assert chosen[0].signals["semantic"] == 0.7
    both = choose(profile, semantic, none, none, T0, replace(bonus, within=0.5))
    assert [e.signals["semantic"] for e in both] == [0.7, 0.32]  # f1 gains nothing
