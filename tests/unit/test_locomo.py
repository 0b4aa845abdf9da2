"""The LoCoMo harness's parsing rules (docs/benchmarks.md), on a fixture of our own."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from cognimem.errors import InvalidInput
from cognimem.eval import locomo

FIXTURE = Path(__file__).parent.parent / "fixtures" / "mini_locomo.json"


def test_evidence_normalisation() -> None:
    known = {"D8:6", "D9:17", "D11:26", "D30:5"}
    assert locomo.parse_evidence(["D8:6; D9:17"], known) == ("D8:6", "D9:17")
    assert locomo.parse_evidence(["D:11:26", "D30:05"], known) == ("D11:26", "D30:5")
    assert locomo.parse_evidence(["D99:1", "nonsense"], known) == ()


def test_session_dates() -> None:
    assert locomo.parse_session_time("4:17 pm on 12 March, 2023") == datetime(
        2023, 3, 12, 16, 17, tzinfo=UTC
    )
    with pytest.raises(InvalidInput):
        locomo.parse_session_time("sometime in May")


def test_load_counts_sessions_by_turn_keys_and_drops_evidence_less_questions() -> None:
    [conv] = locomo.load(FIXTURE)
    assert len(conv.sessions) == 2  # session_3 has a date but no turns
    assert conv.sessions[0][2].text.endswith("[shares image: a photo of a clay bowl on a wheel]")
    assert [t.occurred_at.second for t in conv.sessions[0]] == [0, 1, 2]
    assert [q.evidence for q in conv.questions] == [
        ("D1:1",),
        ("D2:1",),
        ("D1:1", "D2:2"),
        ("D1:3",),
        ("D2:1",),
    ]


def test_scores() -> None:
    s = locomo.Scores()
    s.add({"a", "b"}, [({"x"}, 5), ({"a"}, 5), ({"b"}, 5)])
    row = s.row()
    assert row["frac@5"] == 1.0
    assert row["mrr"] == 0.5
    assert row["all@10"] == 1.0
    assert row["tokens@10"] == 15


def test_report_sums_any_split_of_conversations() -> None:
    report = locomo.Report(preset="p")
    a, b, adversarial = locomo.Scores(), locomo.Scores(), locomo.Scores()
    a.add({"x"}, [({"x"}, 4)])  # conv-1, multi-hop: found
    b.add({"y"}, [({"z"}, 6)])  # conv-2, temporal: missed
    adversarial.add({"q"}, [({"q"}, 1)])
    report.by_conversation = {"conv-1": {1: a, 5: adversarial}, "conv-2": {2: b}}
    both = report.subset(["conv-1", "conv-2"]).row()
    assert both["frac@10"] == 0.5  # category 5 is left out of the overall
    assert both["tokens@10"] == 5.0
    assert report.subset(["conv-2"]).row()["frac@10"] == 0.0
    assert report.subset(["conv-1", "conv-2"], 5).row()["frac@10"] == 1.0
    assert report.to_json()["by_conversation"]["conv-1"]["overall"]["frac@10"] == 1.0
