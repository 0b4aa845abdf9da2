"""Speaker focus (recall/conversation/focus.py): whom a query is about, and how the
ranking changes."""

from __future__ import annotations

from datetime import UTC, datetime

from cognimem.models import MemoryItem, Scope
from cognimem.recall.conversation.focus import focus, focus_groups
from cognimem.recall.rerank import Ranked, tokens_of

AUTHORS = ("Priya", "Claire", "Omar", "Rosa", "Mary Ann")
T0 = datetime(2023, 5, 8, tzinfo=UTC)


def test_the_first_named_author_is_the_subject_and_later_names_are_objects() -> None:
    assert focus_groups("What has Priya painted?", AUTHORS) == ["priya"]
    assert focus_groups("What film did Priya watch on Claire's advice?", AUTHORS) == ["priya"]
    assert focus_groups("What did Rosa tell Omar about the bakery?", AUTHORS) == ["rosa"]


def test_coordinated_names_are_one_subject_each() -> None:
    assert focus_groups("What hobby do Omar and Rosa share?", AUTHORS) == ["omar", "rosa"]
    assert focus_groups("Who is older, Omar or Rosa?", AUTHORS) == ["omar", "rosa"]
    assert focus_groups("Did Claire, Omar & Rosa meet?", AUTHORS) == ["claire", "omar", "rosa"]


def test_names_match_whole_words_any_case_with_a_possessive() -> None:
    assert focus_groups("what are PRIYA's hobbies?", AUTHORS) == ["priya"]
    assert focus_groups("What did Mary Ann\u2019s dog eat?", AUTHORS) == ["mary ann"]
    assert focus_groups("Who is Jonathan?", AUTHORS) == []
    assert focus_groups("What did I eat?", AUTHORS) == []


def test_a_name_that_is_a_function_word_counts_only_capitalised_mid_sentence() -> None:
    authors = ("Will", "Rosa")
    assert focus_groups("Will it rain when Rosa visits?", authors) == ["rosa"]
    assert focus_groups("What did Will say?", authors) == ["will"]
    assert focus_groups("what will rosa say?", authors) == ["rosa"]


def _ranked(author: str, score: float, n: int, text: str = "") -> Ranked:
    item = MemoryItem(
        id=f"mem_{n}",
        scope=Scope(tenant_id="t", user_id="u"),
        text=text or f"message {n}.",
        author=author,
        occurred_at=T0,
        recorded_at=T0,
    )
    return Ranked(item, score, {"relevance": score}, {}, (), tokens_of(item.text))


def test_the_subjects_messages_gain_the_weight() -> None:
    ranked = [_ranked("Claire", 1.0, 1), _ranked("Priya", 0.9, 2), _ranked("Claire", 0.8, 3)]
    out = focus(ranked, "What has Priya painted?", 0.2)
    assert [r.item.id for r in out] == ["mem_2", "mem_1", "mem_3"]
    assert out[0].score == 1.1
    assert out[0].signals["speaker"] == 1.0
    assert "speaker" not in out[1].signals
    assert focus(ranked, "What has Priya painted?", 0.0) == ranked
    # "when" questions are ranked by the dated signal, not by who said it
    assert focus(ranked, "When did Priya paint the harbour?", 0.2) == ranked


def test_a_message_that_ends_in_a_question_is_not_boosted() -> None:
    ranked = [
        _ranked("Claire", 1.0, 1, "I painted a sunset."),
        _ranked("Priya", 0.95, 2, "Oh, neat! What made you pick those colours?"),
        _ranked("Priya", 0.9, 3, "Here is my horse painting! Do you like it? Took a week."),
    ]
    out = focus(ranked, "What has Priya painted?", 0.2)
    assert [r.item.id for r in out] == ["mem_3", "mem_1", "mem_2"]
    assert "speaker" not in out[2].signals
    # whoever asks, a message that asks ranks half the weight lower
    assert out[2].score == 0.95 - 0.1
    assert out[2].signals["asks"] == 1.0
    other = [_ranked("Claire", 1.0, 4, "What did you paint?"), _ranked("Priya", 0.95, 5)]
    assert [r.item.id for r in focus(other, "What has Priya painted?", 0.2)] == [
        "mem_5",
        "mem_4",
    ]
    # a query about nobody leaves questions alone
    assert focus(other, "What did you paint?", 0.2) == other
    assert focus(ranked, "What did I paint?", 0.2) == ranked


def test_a_coordinated_subject_interleaves_each_persons_ranking() -> None:
    ranked = [
        _ranked("Rosa", 1.0, 1),
        _ranked("Rosa", 0.95, 2),
        _ranked("Omar", 0.85, 3),
        _ranked("Rosa", 0.8, 4),
        _ranked("Omar", 0.5, 5),
    ]
    out = focus(ranked, "What do Omar and Rosa each enjoy?", 0.2)
    # Omar's ranking: 3 (1.05), 1, 2, 4, 5 (0.7); Rosa's: 1, 2, 4, 3, 5; in turn, each once
    assert [r.item.id for r in out] == ["mem_3", "mem_1", "mem_2", "mem_4", "mem_5"]
    assert focus(ranked, "What do Rosa and Omar each enjoy?", 0.2)[0].item.id == "mem_1"
