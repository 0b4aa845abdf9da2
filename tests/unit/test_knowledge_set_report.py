"""benchmarks/knowledge_set.py shows the tune half item by item and the check half only in
counts, so running the harness never shows anyone a check item to tune on."""

from __future__ import annotations

import importlib
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).parent.parent.parent / "benchmarks"


@pytest.fixture
def knowledge_set(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module("knowledge_set")


def _scores(knowledge_set: ModuleType, passage: str) -> tuple[object, object, object]:
    facts = knowledge_set.FactScore(gold=2, predicted=2, matched=1)
    facts.misses.append(f"{passage} 'My cousin Theo bakes bread.': Theo: occupation/job='baker'")
    facts.unlabelled.append(f"{passage} 'Theo bakes.': Theo: preference/general='bread'")
    store = knowledge_set.StoreScore(links=1)
    store.note("pronoun unresolved: x", f"{passage}: 'He' unresolved")
    return facts, store, knowledge_set.LinkScore(links=1, right=1)


def test_the_check_half_reports_counts_and_no_item(knowledge_set: ModuleType) -> None:
    results = {"tune": _scores(knowledge_set, "t900"), "check": _scores(knowledge_set, "c900")}
    text = knowledge_set.report(results, "# header")
    tune, check = text.split("## check half")
    assert "t900 'My cousin Theo bakes bread.'" in tune
    assert "t900: 'He' unresolved" in tune
    assert "c900" not in check
    assert "Theo" not in check
    assert "Missed labelled facts (1)." in check
    assert "- pronoun unresolved: x: 1" in check


def test_a_rewritten_results_file_keeps_its_hand_written_sections(
    knowledge_set: ModuleType, tmp_path: Path
) -> None:
    old = tmp_path / "knowledge_set.md"
    old.write_text(
        "# title\n\n| table |\n\n## Before and after\n\nprose\n\n## tune half\n\nold details\n",
        encoding="utf-8",
    )
    kept = knowledge_set.kept_notes(old)
    assert kept == "## Before and after\n\nprose\n"
    results = {"tune": _scores(knowledge_set, "t900")}
    text = knowledge_set.report(results, "# title", kept)
    assert text.index("## Before and after") < text.index("## tune half")
    assert "old details" not in text
    assert knowledge_set.kept_notes(tmp_path / "missing.md") == ""


def test_store_notes_are_counted_by_reason(knowledge_set: ModuleType) -> None:
    store = knowledge_set.StoreScore()
    store.note("alias not linked", "a")
    store.note("alias not linked", "b")
    assert store.reasons == Counter({"alias not linked": 2})
